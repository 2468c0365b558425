// The Social SDK for native games (C++17): docs/sdk-cpp.md. One include brings it all:
//   #include <platformpp.h>
// The C API for engines and other languages is platformpp_c.h.
#pragma once

#include "platformpp/activity.h"
#include "platformpp/client.h"
#include "platformpp/enums.h"
#include "platformpp/handles.h"
#include "platformpp/values.h"
