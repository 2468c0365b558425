// The game's backend step, done in the example itself for the demo: with the application's bot
// token, mint a provisional account for the player (POST /partner-sdk/token/bot). A real game
// keeps the bot token on its server and hands each player only their own access token.
#pragma once

#include <string>

/// The player's access token, or "" with `error` set.
std::string mintPlayerToken(std::string const& apiBase, std::string const& botToken,
                            std::string const& playerName, std::string& error);

/// `key` of a flat JSON object's string values (enough for data/demo.json); "" when absent.
std::string jsonString(std::string const& json, std::string const& key);
