/*
 * The native Social SDK from C (platformpp_c.h): two players, given as provisional access
 * tokens, become game friends, exchange DMs, meet in a lobby and talk there; the program checks
 * each step and says which one failed. Mint the tokens with the game's bot token:
 *   curl -s -X POST "$API_URL/partner-sdk/token/bot" -H "Authorization: Bot $BOT_TOKEN" \
 *     -H 'Content-Type: application/json' -d '{"external_user_id":"ada"}'
 * then: API_URL=… TOKEN_A=… TOKEN_B=… ./c-social
 */
#include <platformpp_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  const char* name;
  platformpp_client* client;
  uint64_t friend_request_from; /* a game friend request seen arriving */
  int results_ok;
  int results_failed;
  uint64_t lobby_id;
  uint64_t last_message_from;
  char last_message[256];
  uint64_t member_added;
  uint64_t member_removed;
  int32_t last_error_type;
} player;

static void on_result(const platformpp_result* result, void* user_data) {
  player* p = (player*)user_data;
  if (platformpp_result_successful(result)) {
    p->results_ok++;
  } else {
    p->results_failed++;
    p->last_error_type = platformpp_result_type(result);
    if (p->last_error_type != PLATFORMPP_ERROR_DISABLED) {
      fprintf(stderr, "%s: %s\n", p->name, platformpp_result_error(result));
    }
  }
}

static void on_sent(const platformpp_result* result, uint64_t message_id, void* user_data) {
  (void)message_id;
  on_result(result, user_data);
}

static void on_joined(const platformpp_result* result, uint64_t lobby_id, void* user_data) {
  on_result(result, user_data);
  if (platformpp_result_successful(result)) ((player*)user_data)->lobby_id = lobby_id;
}

static void on_relationship(uint64_t user_id, int is_discord_update, void* user_data) {
  player* p = (player*)user_data;
  if (!is_discord_update &&
      platformpp_client_relationship_type(p->client, user_id, 1) ==
          PLATFORMPP_RELATIONSHIP_PENDING_INCOMING) {
    p->friend_request_from = user_id;
  }
}

static void on_message(uint64_t message_id, void* user_data) {
  player* p = (player*)user_data;
  p->last_message_from = platformpp_client_message_author_id(p->client, message_id);
  platformpp_client_message_content(p->client, message_id, p->last_message,
                                    sizeof(p->last_message));
}

static void on_member_added(uint64_t lobby_id, uint64_t member_id, void* user_data) {
  (void)lobby_id;
  ((player*)user_data)->member_added = member_id;
}

static void on_member_removed(uint64_t lobby_id, uint64_t member_id, void* user_data) {
  (void)lobby_id;
  ((player*)user_data)->member_removed = member_id;
}

/* Pumps callbacks until *flag is true (checked by `done`), for at most 15 seconds. */
static int wait_until(int (*done)(player*, player*), player* a, player* b, const char* step) {
  struct timespec pause = {0, 10 * 1000 * 1000};
  for (int i = 0; i < 1500; i++) {
    platformpp_run_callbacks();
    if (done(a, b)) {
      printf("c-social: %s\n", step);
      return 1;
    }
    nanosleep(&pause, NULL);
  }
  fprintf(stderr, "c-social: timed out: %s\n", step);
  return 0;
}

static int both_ready(player* a, player* b) {
  return platformpp_client_get_status(a->client) == PLATFORMPP_STATUS_READY &&
         platformpp_client_get_status(b->client) == PLATFORMPP_STATUS_READY;
}
static int request_arrived(player* a, player* b) {
  return b->friend_request_from == platformpp_client_current_user_id(a->client);
}
static int friends(player* a, player* b) {
  uint64_t ida = platformpp_client_current_user_id(a->client);
  uint64_t idb = platformpp_client_current_user_id(b->client);
  return platformpp_client_relationship_type(a->client, idb, 1) == PLATFORMPP_RELATIONSHIP_FRIEND &&
         platformpp_client_relationship_type(b->client, ida, 1) == PLATFORMPP_RELATIONSHIP_FRIEND;
}
static int b_got_dm(player* a, player* b) {
  return b->last_message_from == platformpp_client_current_user_id(a->client) &&
         strcmp(b->last_message, "hello from C") == 0;
}
static int a_got_reply(player* a, player* b) {
  return a->last_message_from == platformpp_client_current_user_id(b->client) &&
         strcmp(a->last_message, "hello back") == 0;
}
static int a_in_lobby(player* a, player* b) {
  (void)b;
  return a->lobby_id != 0;
}
static int both_in_lobby(player* a, player* b) {
  return a->lobby_id != 0 && b->lobby_id == a->lobby_id &&
         a->member_added == platformpp_client_current_user_id(b->client);
}
static int b_heard_lobby(player* a, player* b) {
  return b->last_message_from == platformpp_client_current_user_id(a->client) &&
         strcmp(b->last_message, "meet at the gate") == 0;
}
static int b_left(player* a, player* b) {
  return a->member_removed == platformpp_client_current_user_id(b->client);
}
static int voice_refused(player* a, player* b) {
  (void)b;
  return a->last_error_type == PLATFORMPP_ERROR_DISABLED;
}

int main(void) {
  const char* api = getenv("API_URL");
  const char* token_a = getenv("TOKEN_A");
  const char* token_b = getenv("TOKEN_B");
  if (api == NULL || token_a == NULL || token_b == NULL) {
    fprintf(stderr, "Set API_URL, TOKEN_A and TOKEN_B (two provisional players' tokens).\n");
    return 2;
  }
  player a = {"ada", platformpp_client_create(api, NULL), 0, 0, 0, 0, 0, "", 0, 0, 0};
  player b = {"bob", platformpp_client_create(api, NULL), 0, 0, 0, 0, 0, "", 0, 0, 0};
  player* both[2] = {&a, &b};
  for (int i = 0; i < 2; i++) {
    player* p = both[i];
    platformpp_client_set_relationship_created_callback(p->client, on_relationship, p);
    platformpp_client_set_message_created_callback(p->client, on_message, p);
    platformpp_client_set_lobby_member_added_callback(p->client, on_member_added, p);
    platformpp_client_set_lobby_member_removed_callback(p->client, on_member_removed, p);
    platformpp_client_update_token(p->client, PLATFORMPP_TOKEN_BEARER, i == 0 ? token_a : token_b,
                                   on_result, p);
    platformpp_client_connect(p->client);
  }
  int ok = wait_until(both_ready, &a, &b, "both players are ready");
  if (ok) {
    platformpp_client_send_game_friend_request_by_id(
        a.client, platformpp_client_current_user_id(b.client), on_result, &a);
    ok = wait_until(request_arrived, &a, &b, "the friend request arrived");
  }
  if (ok) {
    platformpp_client_accept_game_friend_request(b.client, b.friend_request_from, on_result, &b);
    ok = wait_until(friends, &a, &b, "they are friends");
  }
  if (ok) {
    platformpp_client_send_user_message(a.client, platformpp_client_current_user_id(b.client),
                                        "hello from C", on_sent, &a);
    ok = wait_until(b_got_dm, &a, &b, "the DM arrived");
  }
  if (ok) {
    platformpp_client_send_user_message(b.client, platformpp_client_current_user_id(a.client),
                                        "hello back", on_sent, &b);
    ok = wait_until(a_got_reply, &a, &b, "the reply arrived");
  }
  char secret[64];
  snprintf(secret, sizeof(secret), "c-social-%ld", (long)time(NULL));
  if (ok) {
    /* Ada makes the lobby before Bob joins it: she then sees him added. */
    platformpp_client_create_or_join_lobby(a.client, secret, on_joined, &a);
    ok = wait_until(a_in_lobby, &a, &b, "ada made the lobby");
  }
  if (ok) {
    platformpp_client_create_or_join_lobby(b.client, secret, on_joined, &b);
    ok = wait_until(both_in_lobby, &a, &b, "both joined the lobby");
  }
  if (ok) {
    platformpp_client_send_lobby_message(a.client, a.lobby_id, "meet at the gate", on_sent, &a);
    ok = wait_until(b_heard_lobby, &a, &b, "the lobby message arrived");
  }
  if (ok) {
    platformpp_client_leave_lobby(b.client, b.lobby_id, on_result, &b);
    ok = wait_until(b_left, &a, &b, "bob left the lobby");
  }
  if (ok) {
    platformpp_client_start_call(a.client, a.lobby_id, on_result, &a);
    ok = wait_until(voice_refused, &a, &b, "voice answers that it is not available");
  }
  platformpp_client_destroy(a.client);
  platformpp_client_destroy(b.client);
  if (!ok || a.results_failed > 1 || b.results_failed > 0) {
    fprintf(stderr, "c-social: failed (%d and %d requests refused)\n", a.results_failed,
            b.results_failed);
    return 1;
  }
  printf("c-social: every step passed\n");
  return 0;
}
