/*
 * cmd_serve.c - `mentat serve`: the game host on HTTP (server/), with the
 * bots of tools/bots/ in its bot seats and the web client of tools/web/.
 *
 * Layer: tools. Thin: it opens the ledger, hands the server the bots as
 * callbacks (server_bot_ops: the server layer cannot include the tools),
 * listens, and waits for SIGTERM or SIGINT, on which the server refuses
 * new actions, lets the appends in flight commit and stops. `--demo`
 * creates its room through the server's own handler, as a client would.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server/server.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat serve [--listen HOST:PORT] [--web DIR] [--demo] [--db PATH] [--keys DIR]\n"
    "\n"
    "Serves the rooms of the ledger over HTTP: the JSON API of docs/API.md (create\n"
    "a room with bot seats, join a seat, read its view, legal actions and log, act,\n"
    "watch a push stream of server-sent events) and the web client (tools/web/).\n"
    "Every action is appended through group commit and acknowledged only once\n"
    "durable. Bots play their seats in the server's own threads. On SIGTERM or\n"
    "SIGINT it refuses new actions, finishes the commits in flight, and exits 0.\n"
    "\n"
    "It prints the URL and the referee token (any seat's view and the full state:\n"
    "keep it to the referee). Seat tokens are handed out by joining a seat.\n"
    "\n"
    "  --listen HOST:PORT  an IPv4 address and port (default 127.0.0.1:8080;\n"
    "                      port 0 picks a free one, printed)\n"
    "  --web DIR           the web client's files (default: where make install put\n"
    "                      them, PREFIX/share/mentat/web, else ./tools/web; without\n"
    "                      one it warns and serves the API only)\n"
    "  --demo              create a room of six seats, five of them Medium bots,\n"
    "                      and print the URL that plays the open seat\n"
    "--json prints {\"url\",\"port\",\"referee_token\",\"demo\"} (demo: {\"room\",\n"
    "\"seat\",\"token\",\"play\",\"watch\"} or null) instead of the lines.\n"
    "\n"
    "Examples:\n"
    "  mentat serve\n"
    "  mentat serve --demo --listen 127.0.0.1:8080   # then open the printed URL\n"
    "  mentat serve --listen 127.0.0.1:0 --db games.db --keys ./keys\n"
    "  mentat serve --demo --json | jq -r .demo.play\n";

#define DEFAULT_LISTEN "127.0.0.1:8080"

/* Where the web client is looked for without --web: where `make install`
 * put it (MENTAT_WEB_DIR, from PREFIX), then the source tree's. */
static const char *const web_dirs[] = {
#ifdef MENTAT_WEB_DIR
    MENTAT_WEB_DIR,
#endif
    "tools/web",
};
#define N_WEB_DIRS (sizeof web_dirs / sizeof web_dirs[0])
#define DEMO_BODY                                                                          \
    "{\"factions\":[\"atreides\",\"bene_gesserit\",\"emperor\",\"fremen\",\"harkonnen\"," \
    "\"guild\"],\"rules\":\"basic\",\"bots\":{\"2\":\"medium\",\"3\":\"medium\","        \
    "\"4\":\"medium\",\"5\":\"medium\",\"6\":\"medium\"}}"

static const char *const level_names[BOT_LEVEL_COUNT] = {"easy", "medium", "hard", "brutal"};

/* ======================================================= the web client */

/* 1 if dir holds the web client's index.html. */
static int has_index(const char *dir)
{
    char path[1024];
    struct stat sb;
    snprintf(path, sizeof path, "%s/index.html", dir);
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The first of web_dirs that holds the web client, or NULL. */
static const char *web_dir_find(void)
{
    for (size_t i = 0; i < N_WEB_DIRS; i++)
        if (has_index(web_dirs[i]))
            return web_dirs[i];
    return NULL;
}

/* The web_dirs, for the warning. */
static const char *web_dirs_looked(void)
{
    static char list[512];
    size_t n = 0;
    for (size_t i = 0; i < N_WEB_DIRS && n < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i != 0 ? " or " : "", web_dirs[i]);
    return list;
}

/* ========================================================== the bots */

static void *bot_thread_begin(void *ctx)
{
    (void)ctx;
    return malloc(sizeof(bot_input));
}

static int bot_thread_decide(engine_action *out, void *thread, const engine_state *full,
                             uint8_t seat, unsigned level, uint64_t seed, uint32_t version,
                             int is_forced)
{
    bot_input *in = thread;
    bot *b;
    if (in == NULL || level >= BOT_LEVEL_COUNT ||
        bot_new(&b, seat, (bot_level)level, seed) != BOT_OK)
        return -1;
    bot_input_build(in, full, seat, version, is_forced);
    int rc = bot_decide(out, b, in);
    bot_free(b);
    return rc == BOT_OK ? 0 : rc == BOT_WAIT ? 1 : -1;
}

static void bot_thread_end(void *thread)
{
    free(thread);
}

const server_bot_ops tool_server_bots = {
    bot_thread_begin, bot_thread_decide, bot_thread_end, NULL,
    level_names,      BOT_LEVEL_COUNT,   BOT_LEVEL_MEDIUM,
};

/* ========================================================== the demo */

/* The string member key of a JSON object text into out: 0, or -1. */
static int member_string(char *out, size_t cap, const char *json, const char *key)
{
    codec_json_token tok[128];
    int n = codec_json_parse(tok, 128, json, strlen(json), NULL);
    int t = n > 0 ? codec_json_member(tok, 0, json, key) : -1;
    return t >= 0 && codec_json_string(out, cap, &tok[t], json) == 0 ? 0 : -1;
}

/* Creates the demo room and joins its seat 1 through server_handle:
 * its code and the seat's token. */
static int demo(char room[SCHEMA_ROOM_CHARS + 1], char token[SERVER_TOKEN_CHARS + 1], server *s,
                const tool_globals *g)
{
    server_request req = {"POST", "/api/rooms", NULL, NULL, DEMO_BODY, strlen(DEMO_BODY)};
    server_response r;
    server_handle(&r, s, &req);
    char path[64];
    int rc = r.status == 201 && r.body != NULL &&
                     member_string(room, SCHEMA_ROOM_CHARS + 1, r.body, "room") == 0
                 ? 0
                 : -1;
    if (rc != 0)
        tool_err(g, "the demo room: %s", r.body != NULL ? r.body : "no answer");
    server_response_free(&r);
    if (rc != 0)
        return -1;
    snprintf(path, sizeof path, "/api/rooms/%s/join", room);
    static const char join[] = "{\"seat\":1}";
    server_request jr = {"POST", path, NULL, NULL, join, sizeof join - 1};
    server_handle(&r, s, &jr);
    rc = r.status == 200 && r.body != NULL &&
                 member_string(token, SERVER_TOKEN_CHARS + 1, r.body, "token") == 0
             ? 0
             : -1;
    server_response_free(&r);
    if (rc != 0) {
        tool_err(g, "the demo room's open seat cannot be joined");
        return -1;
    }
    return 0;
}

/* What the server says at start: its URL, the referee token, and the
 * demo room (room NULL: none), as text or one JSON object. */
static void print_start(const tool_globals *g, const char *host, unsigned port,
                        const char *referee, const char *room, const char *token)
{
    char base[96], play[256], watch[160];
    snprintf(base, sizeof base, "http://%s:%u/", host, port);
    if (room != NULL) {
        snprintf(play, sizeof play, "%sroom.html?room=%s&token=%s", base, room, token);
        snprintf(watch, sizeof watch, "%sroom.html?room=%s", base, room);
    }
    if (!g->is_json) {
        printf("listening on %s\nreferee token: %s\n", base, referee);
        if (room != NULL)
            printf("demo room %s: you are seat 1 (atreides) against five Medium bots\n"
                   "play: %s\nwatch: %s\n", room, play, watch);
        fflush(stdout);
        return;
    }
    tool_json j;
    tool_json_init(&j, stdout);
    tool_json_object_begin(&j);
    tool_json_member_string(&j, "url", base);
    tool_json_member_uint(&j, "port", port);
    tool_json_member_string(&j, "referee_token", referee);
    tool_json_key(&j, "demo");
    if (room != NULL) {
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", room);
        tool_json_member_uint(&j, "seat", 1);
        tool_json_member_string(&j, "token", token);
        tool_json_member_string(&j, "play", play);
        tool_json_member_string(&j, "watch", watch);
        tool_json_object_end(&j);
    } else {
        tool_json_null(&j);
    }
    tool_json_object_end(&j);
    tool_json_finish(&j);
}

/* ========================================================== command */

/* "HOST:PORT" into host and port: 0, or -1. */
static int parse_listen(char host[64], unsigned *port, const char *s)
{
    const char *colon = strrchr(s, ':');
    uint32_t p;
    if (colon == NULL || (size_t)(colon - s) >= 64 || colon == s ||
        tool_parse_uint(&p, colon + 1, 0, 65535) != 0)
        return -1;
    memcpy(host, s, (size_t)(colon - s));
    host[colon - s] = '\0';
    *port = p;
    return 0;
}

int cmd_serve(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *listen_s = DEFAULT_LISTEN, *web = NULL;
    int is_demo = 0;
    const tool_opt opts[] = {
        {"--listen", "HOST:PORT", &listen_s, NULL},
        {"--web", "DIR", &web, NULL},
        {"--demo", NULL, NULL, &is_demo},
        {NULL, NULL, NULL, NULL},
    };
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, NULL, 0, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    char host[64];
    unsigned port;
    if (parse_listen(host, &port, listen_s) != 0) {
        tool_err(&g, "--listen must be HOST:PORT, not '%s'", listen_s);
        return TOOL_EXIT_USAGE;
    }
    struct stat sb;
    if (web != NULL && (stat(web, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
        tool_err(&g, "--web %s is not a directory", web);
        return TOOL_EXIT_USAGE;
    }
    if (web == NULL)
        web = web_dir_find();
    if (web == NULL)
        fprintf(stderr, "mentat serve: warning: no web client found (in %s): serving the API "
                        "only; --web DIR names one\n", web_dirs_looked());
    else if (!has_index(web))
        fprintf(stderr, "mentat serve: warning: %s has no index.html: no web client\n", web);

    /* The signals are taken by sigwait below: blocked before any thread starts. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* A ledger the server makes is put in place before it serves (closed
     * and opened again), so that a server killed later leaves it whole. */
    ledger *db;
    int ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    tool_ledger_keep();
    ex = tool_ledger_close(&g, db, ex);
    if (ex != TOOL_EXIT_OK)
        return ex;
    ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char table[1024], err[SERVER_ERRMSG] = "";
    snprintf(table, sizeof table, "%s.serve", g.db_path);
    server_options opt;
    server_options_init(&opt);
    opt.db = db;
    opt.keys_dir = g.keys_dir;
    opt.state_path = table;
    opt.web_dir = web;
    opt.module_names = tool_module_names;
    opt.n_module_names = TOOL_MODULE_COUNT;
    opt.bots = &tool_server_bots;
    server *s = NULL;
    int rc = server_new(&s, &opt, err);
    unsigned bound = 0;
    if (rc == 0)
        rc = server_listen(s, host, port, &bound, err);
    if (rc != 0) {
        tool_err(&g, "%s", err);
        server_free(s);
        ledger_close(db);
        return TOOL_EXIT_USAGE;
    }
    char referee[SERVER_TOKEN_CHARS + 1];
    server_referee_token(s, referee);
    char room[SCHEMA_ROOM_CHARS + 1] = "", token[SERVER_TOKEN_CHARS + 1] = "";
    if (is_demo && demo(room, token, s, &g) != 0)
        ex = TOOL_EXIT_USAGE;
    else
        print_start(&g, host, bound, referee, is_demo ? room : NULL, token);
    if (ex == TOOL_EXIT_OK) {
        int sig = 0;
        sigwait(&sigs, &sig);
        fprintf(stderr, "mentat serve: %s: finishing the commits in flight\n",
                sig == SIGTERM ? "SIGTERM" : "SIGINT");
    }
    server_stop(s);
    server_free(s);
    ledger_close(db);
    return ex;
}
