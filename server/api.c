/*
 * api.c - the JSON API (docs/API.md): one function per route, each taking
 * a parsed request and answering a status and a JSON body.
 *
 * Layer: server. Everything a request carries is outside bytes: paths,
 * queries, tokens and bodies are checked and refused with a 4xx and
 * {"error": "..."} (one line), never asserted; nothing is written before
 * every check has passed. What a viewer is sent is the library's JSON of
 * its own view (4): inspect_state_json and inspect_log_line_json.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

#define BODY_TOKENS 256
#define MAX_PATH_PARTS 5
#define PART_CHARS 64

/* ============================================================ replies */

/* A response body written with the JSON writer over a memory stream. */
typedef struct reply {
    server_response *out;
    FILE *f;
    inspect_json j;
} reply;

static int reply_begin(reply *rp, server_response *out, unsigned status)
{
    memset(out, 0, sizeof *out);
    rp->out = out;
    out->status = status;
    out->content_type = "application/json";
    rp->f = open_memstream(&out->body, &out->body_len);
    if (rp->f == NULL) {
        out->status = 500;
        return -1;
    }
    inspect_json_init(&rp->j, rp->f);
    return 0;
}

static void reply_end(reply *rp)
{
    inspect_json_finish(&rp->j);
    if (fclose(rp->f) != 0) {
        free(rp->out->body);
        rp->out->body = NULL;
        rp->out->body_len = 0;
        rp->out->status = 500;
    }
}

/* {"error": msg} with status. */
void server__fail(server_response *out, unsigned status, const char *msg)
{
    reply rp;
    if (reply_begin(&rp, out, status) != 0)
        return;
    inspect_json_object_begin(&rp.j);
    inspect_json_member_string(&rp.j, "error", msg);
    inspect_json_object_end(&rp.j);
    reply_end(&rp);
}

void server_response_free(server_response *r)
{
    free(r->body);
    free(r->file_path);
    memset(r, 0, sizeof *r);
}

/* ============================================================ queries */

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Exactly 2n hex digits of token t into n bytes: 0, or -1. */
static int hex_bytes(uint8_t *out, size_t n, const codec_json_token *t, const char *text)
{
    if (t->type != CODEC_JSON_STRING || t->end - t->start != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(text[t->start + 2 * i]), lo = hex_digit(text[t->start + 2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi * 16 + lo);
    }
    return 0;
}

int server__query_get(char *out, size_t cap, const char *query, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = query; p != NULL && *p != '\0';) {
        const char *end = strchr(p, '&');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t o = 0;
            for (size_t i = klen + 1; i < n; i++) {
                int c = (unsigned char)p[i];
                if (c == '%') {
                    int hi = i + 2 < n ? hex_digit(p[i + 1]) : -1;
                    int lo = i + 2 < n ? hex_digit(p[i + 2]) : -1;
                    if (hi < 0 || lo < 0)
                        return -1;
                    c = hi * 16 + lo;
                    i += 2;
                } else if (c == '+') {
                    c = ' ';
                }
                if (c == 0 || o + 1 >= cap)
                    return -1;
                out[o++] = (char)c;
            }
            out[o] = '\0';
            return 1;
        }
        p = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

/* An unsigned query value: 1 and *out, 0 absent, -1 malformed. */
static int query_uint(uint32_t *out, const char *query, const char *key)
{
    char v[16];
    int rc = server__query_get(v, sizeof v, query, key);
    if (rc <= 0)
        return rc;
    char *end;
    if (v[0] < '0' || v[0] > '9')
        return -1;
    unsigned long x = strtoul(v, &end, 10);
    if (*end != '\0' || x > UINT32_MAX)
        return -1;
    *out = (uint32_t)x;
    return 1;
}

/* ============================================================ views */

void server__doc_json(inspect_json *j, const char *code, uint32_t version, uint32_t head,
                      const engine_state *st, uint8_t viewer)
{
    static const engine_legal none[1];
    inspect_state_doc d = {code, version, head, st, none, 0, 0};
    engine_state *view = NULL;
    engine_legal *legal = NULL;
    if (viewer != ENGINE_SEAT_ENGINE) {
        view = malloc(sizeof *view);
        if (view == NULL) {
            inspect_json_null(j);
            return;
        }
        engine_view(view, st, viewer); /* (4) */
        d.st = view;
    }
    if (viewer < st->config.n_seats && (legal = malloc(ENGINE_LEGAL_MAX * sizeof *legal)) != NULL) {
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, viewer);
        d.legal = legal;
        d.n_legal = n < ENGINE_LEGAL_MAX ? n : ENGINE_LEGAL_MAX;
    }
    inspect_state_json(j, &d);
    free(legal);
    free(view);
}

void server_view_json(FILE *f, const char *code, uint32_t version, uint32_t head,
                      const engine_state *st, uint8_t viewer)
{
    inspect_json j;
    inspect_json_init(&j, f);
    server__doc_json(&j, code, version, head, st, viewer);
    inspect_json_finish(&j);
}

void server__step_log_json(inspect_json *j, uint32_t version, const engine_state *cur,
                           const engine_state *prev, const engine_action *last, uint8_t viewer)
{
    engine_state *before = malloc(sizeof *before), *after = malloc(sizeof *after);
    inspect_log_line *line = malloc(sizeof *line);
    if (before != NULL && after != NULL && line != NULL) {
        if (viewer == ENGINE_SEAT_ENGINE) {
            memcpy(before, prev, sizeof *before);
            memcpy(after, cur, sizeof *after);
        } else {
            engine_view(before, prev, viewer); /* (4) */
            engine_view(after, cur, viewer);
        }
        inspect_log_describe(line, before, after, last, version, viewer);
        inspect_log_line_json(j, &cur->config, line);
    }
    free(before);
    free(after);
    free(line);
}

void server__update_json(inspect_json *j, const char *code, uint32_t version,
                         const engine_state *cur, const engine_state *prev,
                         const engine_action *last, uint8_t viewer)
{
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "version", version);
    inspect_json_key(j, "view");
    server__doc_json(j, code, version, version, cur, viewer);
    inspect_json_key(j, "log");
    inspect_json_array_begin(j);
    if (prev != NULL)
        server__step_log_json(j, version, cur, prev, last, viewer);
    inspect_json_array_end(j);
    inspect_json_object_end(j);
}

void server_update_json(FILE *f, const char *code, uint32_t version, const engine_state *cur,
                        const engine_state *prev, const engine_action *last, uint8_t viewer)
{
    inspect_json j;
    inspect_json_init(&j, f);
    server__update_json(&j, code, version, cur, prev, last, viewer);
    inspect_json_finish(&j);
}

/* ============================================================ bodies */

typedef struct body {
    const char *text;
    codec_json_token tok[BODY_TOKENS];
    int n;
} body;

/* Parses the request body as one JSON object: 0, or -1 with out failed. */
static int body_parse(body *b, server_response *out, const server_request *req)
{
    char err[SCHEMA_ERRMSG] = "";
    b->text = req->body;
    if (req->body == NULL || req->body_len == 0) {
        server__fail(out, 400, "a JSON object body is needed");
        return -1;
    }
    b->n = codec_json_parse(b->tok, BODY_TOKENS, req->body, req->body_len, err);
    if (b->n <= 0 || b->tok[0].type != CODEC_JSON_OBJECT) {
        char msg[SCHEMA_ERRMSG + 32];
        snprintf(msg, sizeof msg, "the body is not a JSON object%s%s", err[0] ? ": " : "", err);
        server__fail(out, 400, msg);
        return -1;
    }
    return 0;
}

/* A seat named by a number 1..n or a faction slug (token t): 0 and *out,
 * or -1. */
static int seat_of_token(uint8_t *out, const body *b, int t, const engine_config *cfg)
{
    int64_t v;
    if (b->tok[t].type == CODEC_JSON_NUMBER) {
        if (codec_json_int(&v, &b->tok[t], b->text) != 0 || v < 1 || v > cfg->n_seats)
            return -1;
        *out = (uint8_t)(v - 1);
        return 0;
    }
    char name[PART_CHARS];
    if (b->tok[t].type != CODEC_JSON_STRING ||
        codec_json_string(name, sizeof name, &b->tok[t], b->text) != 0)
        return -1;
    if (name[0] >= '1' && name[0] <= '9' && name[1] == '\0' && (unsigned)(name[0] - '0') <= cfg->n_seats) {
        *out = (uint8_t)(name[0] - '1');
        return 0;
    }
    engine_faction f = engine_faction_from_name(name);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (cfg->faction[s] == f && f != ENGINE_FACTION_NONE) {
            *out = s;
            return 0;
        }
    return -1;
}

/* The member whose key is token k of an object {seat or faction: value}:
 * its seat and its value's token *v; 0, or -1 with a 400 naming `what`. */
static int seat_member(uint8_t *seat, uint32_t *v, server_response *out, const body *b, uint32_t k,
                       const engine_config *cfg, const char *what)
{
    *v = k + 1;
    if (seat_of_token(seat, b, (int)k, cfg) == 0)
        return 0;
    char msg[64];
    snprintf(msg, sizeof msg, "%s: a key names no seat of the room", what);
    server__fail(out, 400, msg);
    return -1;
}

/* ============================================================ routes */

/* {room, version, rules, seats:[{seat, faction, bot, joined}]}. Needs r->mutex. */
static void room_json(inspect_json *j, const server *s, const server__room *r)
{
    inspect_json_object_begin(j);
    inspect_json_member_string(j, "room", r->code);
    inspect_json_member_uint(j, "version", r->version);
    inspect_json_member_string(j, "rules", r->config.is_advanced ? "advanced" : "basic");
    inspect_json_member_string(j, "phase", engine_phase_name(r->cur->phase));
    inspect_json_member_uint(j, "turn", r->cur->turn);
    inspect_json_key(j, "seats");
    inspect_json_array_begin(j);
    for (uint8_t seat = 0; seat < r->config.n_seats; seat++) {
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "seat", seat + 1u);
        inspect_json_member_string(j, "faction", inspect_seat_faction(&r->config, seat));
        inspect_json_key(j, "bot");
        const server_bot_ops *ops = s->opt.bots;
        if (r->bot_level[seat] != 0 && ops != NULL && r->bot_level[seat] - 1u < ops->n_levels)
            inspect_json_string(j, ops->level_names[r->bot_level[seat] - 1u]);
        else
            inspect_json_null(j);
        inspect_json_member_bool(j, "joined", r->is_joined[seat]);
        inspect_json_member_bool(j, "bound", (r->bound >> seat) & 1);
        inspect_json_object_end(j);
    }
    inspect_json_array_end(j);
    inspect_json_object_end(j);
}

/* The ledger refused cfg: why, in the engine's words (engine_setup on a
 * throwaway state names the faction or says it is a module), into err;
 * err is kept when the engine accepts cfg. */
static void config_refusal(char err[SERVER_ERRMSG], const server *s, const engine_config *cfg)
{
    static const uint8_t zero_seed[ENGINE_SEED_BYTES];
    engine_state *st = malloc(sizeof *st);
    if (st == NULL)
        return;
    engine_rng rng;
    engine_verdict_detail why = {-1, 0};
    engine_rng_init(&rng, zero_seed, 0);
    engine_verdict v = engine_setup(&why, st, cfg, &rng);
    free(st);
    if (v != ENGINE_REJECT_RULE_NOT_IMPLEMENTED)
        return;
    const char *reason = engine_verdict_name(v);
    if (why.arg >= 0 && why.arg < cfg->n_seats) {
        snprintf(err, SERVER_ERRMSG, "factions: the engine does not play %s yet (%s)",
                 inspect_seat_faction(cfg, (uint8_t)why.arg), reason);
        return;
    }
    if (cfg->modules == 0)
        return;
    size_t n = (size_t)snprintf(err, SERVER_ERRMSG, "modules: the engine does not have the module%s",
                                (cfg->modules & (cfg->modules - 1)) != 0 ? "s" : "");
    for (unsigned m = 0, k = 0; m < s->opt.n_module_names && n < SERVER_ERRMSG; m++)
        if (cfg->modules & (1u << m))
            n += (size_t)snprintf(err + n, SERVER_ERRMSG - n, "%s %s", k++ != 0 ? "," : "",
                                  s->opt.module_names[m]);
    if (n < SERVER_ERRMSG)
        snprintf(err + n, SERVER_ERRMSG - n, " yet (%s)", reason);
}

/* POST /api/rooms {factions, rules, turns, modules, bots} */
static void route_create(server_response *out, server *s, const server_request *req)
{
    body b;
    if (body_parse(&b, out, req) != 0)
        return;
    engine_config cfg;
    engine_config_init(&cfg);
    int t = codec_json_member(b.tok, 0, b.text, "factions");
    if (t < 0 || b.tok[t].type != CODEC_JSON_ARRAY || b.tok[t].size < 2 ||
        b.tok[t].size > ENGINE_MAX_SEATS) {
        server__fail(out, 400, "factions: an array of 2 to 6 faction slugs is needed");
        return;
    }
    uint32_t e = (uint32_t)t + 1;
    for (uint32_t i = 0; i < b.tok[t].size; i++, e = b.tok[e].next) {
        char name[PART_CHARS];
        engine_faction f = ENGINE_FACTION_NONE;
        if (b.tok[e].type == CODEC_JSON_STRING &&
            codec_json_string(name, sizeof name, &b.tok[e], b.text) == 0)
            f = engine_faction_from_name(name);
        if (f == ENGINE_FACTION_NONE) {
            server__fail(out, 400, "factions: an unknown faction");
            return;
        }
        cfg.faction[cfg.n_seats++] = (uint8_t)f;
    }
    if ((t = codec_json_member(b.tok, 0, b.text, "rules")) >= 0) {
        if (codec_json_eq(&b.tok[t], b.text, "advanced")) {
            /* As `room create --rules advanced`: stored Advanced rooms go
             * on verifying, but a new one could not be played in full. */
            server__fail(out, 400, "rules: advanced is refused until the whole Advanced game is "
                                   "built (its Karama powers and most faction abilities are not "
                                   "yet); use basic");
            return;
        } else if (!codec_json_eq(&b.tok[t], b.text, "basic")) {
            server__fail(out, 400, "rules: basic or advanced");
            return;
        }
    }
    if ((t = codec_json_member(b.tok, 0, b.text, "turns")) >= 0) {
        int64_t v;
        if (codec_json_int(&v, &b.tok[t], b.text) != 0 || v < 1 || v > 20) {
            server__fail(out, 400, "turns: 1..20");
            return;
        }
        cfg.turn_limit = (uint8_t)v;
    }
    if ((t = codec_json_member(b.tok, 0, b.text, "modules")) >= 0) {
        if (b.tok[t].type != CODEC_JSON_ARRAY) {
            server__fail(out, 400, "modules: an array of module names");
            return;
        }
        e = (uint32_t)t + 1;
        for (uint32_t i = 0; i < b.tok[t].size; i++, e = b.tok[e].next) {
            unsigned m = 0;
            while (m < s->opt.n_module_names && !codec_json_eq(&b.tok[e], b.text, s->opt.module_names[m]))
                m++;
            if (m == s->opt.n_module_names) {
                server__fail(out, 400, "modules: an unknown module");
                return;
            }
            cfg.modules |= 1u << m;
        }
    }
    uint8_t level[ENGINE_MAX_SEATS] = {0};
    if ((t = codec_json_member(b.tok, 0, b.text, "bots")) >= 0) {
        const server_bot_ops *ops = s->opt.bots;
        if (b.tok[t].type != CODEC_JSON_OBJECT || ops == NULL) {
            server__fail(out, 400, ops == NULL ? "bots: this server has no bots"
                                       : "bots: an object {seat or faction: level}");
            return;
        }
        for (uint32_t i = 0, k = (uint32_t)t + 1, v; i < b.tok[t].size; i++, k = b.tok[v].next) {
            uint8_t seat;
            if (seat_member(&seat, &v, out, &b, k, &cfg, "bots") != 0)
                return;
            unsigned lv = 0;
            while (lv < ops->n_levels && !codec_json_eq(&b.tok[v], b.text, ops->level_names[lv]))
                lv++;
            if (b.tok[v].type == CODEC_JSON_BOOL && b.text[b.tok[v].start] == 't')
                lv = ops->default_level;
            if (lv >= ops->n_levels) {
                server__fail(out, 400, "bots: an unknown bot level");
                return;
            }
            level[seat] = (uint8_t)(lv + 1u);
        }
    }
    ledger_seat_keys keys;
    memset(&keys, 0, sizeof keys);
    if ((t = codec_json_member(b.tok, 0, b.text, "seat_keys")) >= 0) {
        if (b.tok[t].type != CODEC_JSON_OBJECT) {
            server__fail(out, 400, "seat_keys: an object {seat or faction: public key in hex}");
            return;
        }
        for (uint32_t i = 0, k = (uint32_t)t + 1, v; i < b.tok[t].size; i++, k = b.tok[v].next) {
            uint8_t seat;
            if (seat_member(&seat, &v, out, &b, k, &cfg, "seat_keys") != 0)
                return;
            if (level[seat] != 0) {
                server__fail(out, 400, "seat_keys: a bot's seat is not bound to a key");
                return;
            }
            if (hex_bytes(keys.key[seat], SCHEMA_KEY_BYTES, &b.tok[v], b.text) != 0) {
                server__fail(out, 400, "seat_keys: an Ed25519 public key is 64 hex digits");
                return;
            }
            keys.bound |= (uint16_t)(1u << seat);
        }
    }
    char err[SERVER_ERRMSG] = "";
    server__room *r;
    int rc = server__room_create(&r, s, &cfg, level, keys.bound != 0 ? &keys : NULL, err);
    if (rc == LEDGER_EINPUT)
        config_refusal(err, s, &cfg);
    if (rc != 0) {
        server__fail(out, rc == SERVER_ERROR ? 500 : 400, err);
        return;
    }
    reply rp;
    if (reply_begin(&rp, out, 201) != 0)
        return;
    pthread_mutex_lock(&r->mutex);
    room_json(&rp.j, s, r);
    pthread_mutex_unlock(&r->mutex);
    reply_end(&rp);
}

int server__room_of_request(server__room **r, server_response *out, server *s, const char *code)
{
    int rc = server__room_get(r, s, code);
    if (rc == SERVER_EINPUT)
        server__fail(out, 400, "not a room code (8 characters of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ)");
    else if (rc == LEDGER_ENOTFOUND)
        server__fail(out, 404, "no such room");
    else if (rc != 0)
        server__fail(out, 500, "the room cannot be read");
    return rc != 0 ? -1 : 0;
}

/* Which viewer the request is, in room r: its token's, and for the
 * referee the seat named by ?seat=N, if any. 0, or -1 with out failed. */
int server__request_viewer(uint8_t *out_viewer, server_response *out, const server *s,
                           const server__room *r, const server_request *req)
{
    char token[SERVER_TOKEN_CHARS + 2] = "";
    const char *t = req->token;
    if (t == NULL) {
        int q = server__query_get(token, sizeof token, req->query, "token");
        if (q < 0) {
            server__fail(out, 400, "token: malformed");
            return -1;
        }
        t = q == 1 ? token : NULL;
    }
    uint8_t v = server__viewer_of(s, r, t);
    if (v == SERVER__VIEWER_NONE) {
        server__fail(out, 403, "this token opens no seat of this room");
        return -1;
    }
    uint32_t seat;
    int q = query_uint(&seat, req->query, "seat");
    if (q < 0 || (q == 1 && (seat < 1 || seat > r->config.n_seats))) {
        server__fail(out, 400, "seat: 1..N");
        return -1;
    }
    if (q == 1 && v != ENGINE_SEAT_ENGINE && v != seat - 1u) {
        server__fail(out, 403, "only the referee sees another seat's view");
        return -1;
    }
    if (q == 1)
        v = (uint8_t)(seat - 1u);
    if (v == ENGINE_SEAT_ENGINE && server__query_get(token, sizeof token, req->query, "public") == 1)
        v = ENGINE_VIEW_PUBLIC;
    *out_viewer = v;
    return 0;
}

/* The viewer of the request and the full state at the version ?at=V
 * names (default the head) into a new *st (free()): 0, or -1 with a 4xx
 * or 5xx in *out. */
static int request_state(engine_state **st_out, uint8_t *viewer, uint32_t *at_out,
                         uint32_t *head_out, server_response *out, server *s, server__room *r,
                         const server_request *req)
{
    *st_out = NULL;
    if (server__request_viewer(viewer, out, s, r, req) != 0)
        return -1;
    uint32_t at = 0;
    int q = query_uint(&at, req->query, "at");
    if (q < 0) {
        server__fail(out, 400, "at: a version");
        return -1;
    }
    engine_state *st = malloc(sizeof *st);
    if (st == NULL) {
        server__fail(out, 500, "out of memory");
        return -1;
    }
    int rc = 0;
    pthread_mutex_lock(&r->mutex);
    uint32_t head = r->version;
    if (q == 0 || at == head) {
        at = head;
        memcpy(st, r->cur, sizeof *st);
    } else if (at > head) {
        rc = 1;
    } else {
        pthread_rwlock_wrlock(&s->gate); /* (1), (2) */
        rc = ledger_state_at(s->opt.db, st, r->code, at);
        pthread_rwlock_unlock(&s->gate);
    }
    pthread_mutex_unlock(&r->mutex);
    if (rc != 0) {
        free(st);
        server__fail(out, rc == 1 ? 400 : 500, rc == 1 ? "at: past the head" : "the room cannot be read");
        return -1;
    }
    *st_out = st;
    *at_out = at;
    *head_out = head;
    return 0;
}

/* GET .../view[?at=V] */
static void route_view(server_response *out, server *s, server__room *r,
                       const server_request *req)
{
    engine_state *st;
    uint8_t viewer;
    uint32_t at, head;
    if (request_state(&st, &viewer, &at, &head, out, s, r, req) != 0)
        return;
    reply rp;
    if (reply_begin(&rp, out, 200) == 0) {
        server__doc_json(&rp.j, r->code, at, head, st, viewer);
        reply_end(&rp);
    }
    free(st);
}

/* GET .../board.svg[?at=V]: the viewer's view drawn by inspect_render_svg. */
static void route_board(server_response *out, server *s, server__room *r,
                        const server_request *req)
{
    engine_state *st, *view = malloc(sizeof(engine_state));
    uint8_t viewer;
    uint32_t at, head;
    if (view == NULL) {
        server__fail(out, 500, "out of memory");
        return;
    }
    if (request_state(&st, &viewer, &at, &head, out, s, r, req) != 0) {
        free(view);
        return;
    }
    engine_view(view, st, viewer); /* (4) */
    if (viewer == ENGINE_SEAT_ENGINE)
        memcpy(view, st, sizeof *view);
    memset(out, 0, sizeof *out);
    FILE *f = open_memstream(&out->body, &out->body_len);
    inspect_render_options opt;
    inspect_render_options_init(&opt);
    int rc = f != NULL ? inspect_render_svg(f, view, &opt) : -1;
    if (f != NULL && fclose(f) != 0)
        rc = -1;
    free(st);
    free(view);
    if (rc != 0) {
        server_response_free(out);
        server__fail(out, 500, "the board could not be drawn");
        return;
    }
    out->status = 200;
    out->content_type = "image/svg+xml";
}

typedef struct log_ctx {
    inspect_json *j;
    const engine_config *cfg;
} log_ctx;

static int log_line(void *ctx, const inspect_log_line *line)
{
    log_ctx *lc = ctx;
    inspect_log_line_json(lc->j, lc->cfg, line);
    return 0;
}

void server__log_json(inspect_json *j, server *s, const server__room *r, uint8_t viewer,
                      uint32_t from, uint32_t to)
{
    log_ctx lc = {j, &r->config};
    pthread_rwlock_wrlock(&s->gate); /* (1) */
    int rc = inspect_log_walk(s->opt.db, r->code, viewer, from, to, log_line, &lc);
    pthread_rwlock_unlock(&s->gate);
    (void)rc; /* a damaged room ends the array early; `mentat verify` says why */
}

/* GET .../log[?from=A&to=B] */
static void route_log(server_response *out, server *s, server__room *r,
                      const server_request *req)
{
    uint8_t viewer;
    if (server__request_viewer(&viewer, out, s, r, req) != 0)
        return;
    uint32_t from = 1, to = 0;
    if (query_uint(&from, req->query, "from") < 0 || query_uint(&to, req->query, "to") < 0) {
        server__fail(out, 400, "from, to: versions");
        return;
    }
    pthread_mutex_lock(&r->mutex);
    uint32_t head = r->version;
    pthread_mutex_unlock(&r->mutex);
    if (to == 0 || to > head)
        to = head;
    if (from == 0)
        from = 1;
    reply rp;
    if (reply_begin(&rp, out, 200) != 0)
        return;
    inspect_json_array_begin(&rp.j);
    if (from <= to)
        server__log_json(&rp.j, s, r, viewer, from, to);
    inspect_json_array_end(&rp.j);
    reply_end(&rp);
}

/* POST .../join {seat} */
static void route_join(server_response *out, server *s, server__room *r,
                       const server_request *req)
{
    body b;
    if (body_parse(&b, out, req) != 0)
        return;
    int t = codec_json_member(b.tok, 0, b.text, "seat");
    uint8_t seat;
    if (t < 0 || seat_of_token(&seat, &b, t, &r->config) != 0) {
        server__fail(out, 400, "seat: 1..N or a faction of the room");
        return;
    }
    if (server__room_join(s, r, seat) != 0) {
        server__fail(out, 409, "that seat is a bot's or already taken");
        return;
    }
    char token[SERVER_TOKEN_CHARS + 1];
    server__token(token, s, r->code, seat);
    reply rp;
    if (reply_begin(&rp, out, 200) != 0)
        return;
    inspect_json_object_begin(&rp.j);
    inspect_json_member_string(&rp.j, "room", r->code);
    inspect_json_member_uint(&rp.j, "seat", seat + 1u);
    inspect_json_member_string(&rp.j, "faction", inspect_seat_faction(&r->config, seat));
    inspect_json_member_string(&rp.j, "token", token);
    inspect_json_object_end(&rp.j);
    reply_end(&rp);
}

/* The body {version, action, ...} of an action: 0, or -1 with out failed. */
static int acting_parse(body *b, int64_t *version, engine_action *act, server_response *out,
                        const server_request *req)
{
    if (body_parse(b, out, req) != 0)
        return -1;
    int vt = codec_json_member(b->tok, 0, b->text, "version");
    int at = codec_json_member(b->tok, 0, b->text, "action");
    if (vt < 0 || codec_json_int(version, &b->tok[vt], b->text) != 0 || *version < 0 ||
        *version > UINT32_MAX) {
        server__fail(out, 400, "version: the version the action acts on");
        return -1;
    }
    if (at < 0 || b->tok[at].type != CODEC_JSON_OBJECT) {
        server__fail(out, 400, "action: an action object {\"kind\": ...}");
        return -1;
    }
    char err[SCHEMA_ERRMSG] = "";
    if (codec_action_from_json(act, b->text + b->tok[at].start, b->tok[at].end - b->tok[at].start,
                               err) != 0) {
        char msg[SCHEMA_ERRMSG + 16];
        snprintf(msg, sizeof msg, "action: %s", err);
        server__fail(out, 400, msg);
        return -1;
    }
    return 0;
}

/* The seat of the request's token in r: 0, or -1 with a 403 in out. */
static int acting_seat(uint8_t *seat, server_response *out, const server *s,
                       const server__room *r, const server_request *req)
{
    char token[SERVER_TOKEN_CHARS + 2] = "";
    const char *t = req->token;
    if (t == NULL && server__query_get(token, sizeof token, req->query, "token") == 1)
        t = token;
    *seat = server__viewer_of(s, r, t);
    if (*seat >= r->config.n_seats) {
        server__fail(out, 403, "a seat's token is needed to act");
        return -1;
    }
    return 0;
}

/* A seat's request {version, action, ...}: its seat, body, version and
 * action (of the seat): 0, or -1 with out failed. */
static int acting_request(uint8_t *seat, body *b, int64_t *version, engine_action *act,
                          server_response *out, const server *s, const server__room *r,
                          const server_request *req)
{
    if (acting_seat(seat, out, s, r, req) != 0 || acting_parse(b, version, act, out, req) != 0)
        return -1;
    act->seat = *seat;
    return 0;
}

/* POST .../seat_message {version, action[, bind]}: the bytes a bound seat
 * signs for that action on that version (ledger_seat_message; with
 * "bind": true those a seat joining with a key signs to bind it,
 * ledger_seat_bind_message) and the chain hash in them, in hex. */
static void route_seat_message(server_response *out, server *s, server__room *r,
                               const server_request *req)
{
    uint8_t seat;
    body b;
    int64_t version;
    engine_action act;
    if (acting_request(&seat, &b, &version, &act, out, s, r, req) != 0)
        return;
    uint8_t chain[SCHEMA_HASH_BYTES], msg[LEDGER_SEAT_MESSAGE_MAX];
    pthread_rwlock_wrlock(&s->gate); /* (1) */
    int rc = ledger_chain_hash(s->opt.db, chain, r->code, (uint32_t)version);
    pthread_rwlock_unlock(&s->gate);
    int bt = codec_json_member(b.tok, 0, b.text, "bind");
    int is_bind = bt >= 0 && b.tok[bt].type == CODEC_JSON_BOOL && b.text[b.tok[bt].start] == 't';
    size_t n = rc != 0 ? 0
               : is_bind ? ledger_seat_bind_message(msg, r->code, (uint32_t)version, chain, &act)
                         : ledger_seat_message(msg, r->code, (uint32_t)version, chain, &act);
    if (rc == LEDGER_ENOTFOUND || (rc == 0 && n == 0)) {
        server__fail(out, 400, rc != 0 ? "version: beyond the head" : "action: it has no seat message");
        return;
    }
    if (rc != 0) {
        server__fail(out, 500, "the room cannot be read");
        return;
    }
    reply rp;
    if (reply_begin(&rp, out, 200) != 0)
        return;
    inspect_json_object_begin(&rp.j);
    inspect_json_member_uint(&rp.j, "seat", seat + 1u);
    inspect_json_member_uint(&rp.j, "version", (uint32_t)version);
    inspect_json_key(&rp.j, "chain_hash");
    inspect_json_hex(&rp.j, chain, SCHEMA_HASH_BYTES);
    inspect_json_key(&rp.j, "message");
    inspect_json_hex(&rp.j, msg, n);
    inspect_json_object_end(&rp.j);
    reply_end(&rp);
}

/* POST .../actions {version, action} */
static void route_act(server_response *out, server *s, server__room *r,
                      const server_request *req)
{
    uint8_t seat;
    body b;
    int64_t version;
    engine_action act;
    if (acting_request(&seat, &b, &version, &act, out, s, r, req) != 0)
        return;
    uint8_t sig[SCHEMA_SIG_BYTES], bind_key[SCHEMA_KEY_BYTES];
    int st = codec_json_member(b.tok, 0, b.text, "seat_sig");
    int bt = codec_json_member(b.tok, 0, b.text, "bind_key");
    pthread_mutex_lock(&r->mutex);
    int is_bound = (r->bound >> seat) & 1;
    pthread_mutex_unlock(&r->mutex);
    if (bt >= 0) { /* the seat joins bound to a key of its own */
        if (hex_bytes(bind_key, sizeof bind_key, &b.tok[bt], b.text) != 0) {
            server__fail(out, 400, "bind_key: an Ed25519 public key is 64 hex digits");
            return;
        }
        if (is_bound) {
            server__fail(out, 409, "bind_key: this seat is already bound to a seat key");
            return;
        }
        if (st < 0) {
            server__fail(out, 400, "seat_sig: a binding must carry the key's signature of the "
                                   "binding message (seat_message with \"bind\": true)");
            return;
        }
    } else if (is_bound && st < 0) {
        server__fail(out, 400, "seat_sig: this seat is bound to a seat key: the action must carry "
                               "the seat's signature (the bytes `mentat act --seat-key` signs)");
        return;
    }
    if (!is_bound && bt < 0 && st >= 0) {
        server__fail(out, 400, "seat_sig: this seat is bound to no seat key: send no signature, "
                               "or bind it with bind_key");
        return;
    }
    if (st >= 0 && hex_bytes(sig, sizeof sig, &b.tok[st], b.text) != 0) {
        server__fail(out, 400, "seat_sig: an Ed25519 signature is 128 hex digits");
        return;
    }
    ledger_append_result res;
    int rc = server__room_append(&res, s, r, (uint32_t)version, &act, st >= 0 ? sig : NULL,
                                 bt >= 0 ? bind_key : NULL);
    if (rc == -2) {
        server__fail(out, 503, "the server is stopping");
        return;
    }
    reply rp;
    if (rc == LEDGER_ECONFLICT) {
        (void)server__room_sync(s, r); /* the head may have moved in another process */
        if (reply_begin(&rp, out, 409) != 0)
            return;
        pthread_mutex_lock(&r->mutex);
        uint32_t head = r->version;
        pthread_mutex_unlock(&r->mutex);
        char msg[96];
        if (version > head)
            snprintf(msg, sizeof msg, "conflict: version %u is beyond the head %u",
                     (unsigned)version, head);
        else
            snprintf(msg, sizeof msg, "conflict: the head has moved to %u", head);
        inspect_json_object_begin(&rp.j);
        inspect_json_member_string(&rp.j, "error", msg);
        inspect_json_member_uint(&rp.j, "head", head);
        inspect_json_object_end(&rp.j);
        reply_end(&rp);
        return;
    }
    if (rc == LEDGER_EINPUT && bt >= 0) {
        server__fail(out, 403, "seat_sig: not bind_key's signature of this binding at this version, "
                               "or the key is another seat's");
        return;
    }
    if (rc == LEDGER_EINPUT && is_bound) {
        server__fail(out, 403, "seat_sig: not this seat's signature of this action at this version");
        return;
    }
    if (rc != 0) {
        server__fail(out, 500, "the ledger could not append");
        return;
    }
    if (reply_begin(&rp, out, res.verdict == ENGINE_ACCEPTED ? 200 : 422) != 0)
        return;
    inspect_json_object_begin(&rp.j);
    if (res.verdict != ENGINE_ACCEPTED) {
        const engine_action_spec *spec = engine_action_spec_of(act.kind);
        inspect_json_member_string(&rp.j, "error", "rejected by the rules");
        inspect_json_member_string(&rp.j, "verdict", engine_verdict_name(res.verdict));
        inspect_json_key(&rp.j, "arg");
        if (spec != NULL && res.why.arg >= 0 && res.why.arg < spec->n_args)
            inspect_json_string(&rp.j, spec->arg_name[res.why.arg]);
        else
            inspect_json_null(&rp.j);
        inspect_json_member_int(&rp.j, "value", res.why.value);
    } else {
        const codec_receipt *rc_ = &res.receipt;
        inspect_json_member_string(&rp.j, "verdict", "accepted");
        inspect_json_member_bool(&rp.j, "retry", res.is_retry);
        inspect_json_receipt_members(&rp.j, rc_);
    }
    inspect_json_object_end(&rp.j);
    reply_end(&rp);
}

/* ============================================================ static */

/* A static file under web_dir: names of [A-Za-z0-9_-] with one dot, no
 * "..", no slash but between parts: anything else is 404. */
static void route_static(server_response *out, const server *s, const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
        {".png", "image/png"},
    };
    if (strcmp(path, "/") == 0)
        path = "/index.html";
    const char *dot = strrchr(path, '.');
    int ok = s->opt.web_dir != NULL && dot != NULL && strlen(path) < 128 && path[0] == '/';
    for (const char *p = path + 1; ok && *p != '\0'; p++)
        ok = isalnum((unsigned char)*p) || *p == '_' || *p == '-' || (*p == '.' && p == dot);
    const char *type = NULL;
    for (size_t i = 0; ok && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            type = types[i].type;
    if (!ok || type == NULL) {
        server__fail(out, 404, "no such page");
        return;
    }
    memset(out, 0, sizeof *out);
    size_t n = strlen(s->opt.web_dir) + strlen(path) + 1;
    out->file_path = malloc(n);
    if (out->file_path == NULL) {
        server__fail(out, 500, "out of memory");
        return;
    }
    snprintf(out->file_path, n, "%s%s", s->opt.web_dir, path);
    out->status = 200;
    out->content_type = type;
}

/* ============================================================ routing */

/* Splits "/api/rooms/R/view" into parts: their number, or -1 if a part is
 * too long or there are too many. */
static int path_split(char parts[MAX_PATH_PARTS][PART_CHARS], const char *path)
{
    int n = 0;
    const char *p = path;
    while (*p == '/')
        p++;
    while (*p != '\0') {
        const char *end = strchr(p, '/');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n == MAX_PATH_PARTS || len >= PART_CHARS || len == 0)
            return -1;
        memcpy(parts[n], p, len);
        parts[n][len] = '\0';
        n++;
        p += len;
        if (*p == '/')
            p++;
    }
    return n;
}

void server_handle(server_response *out, server *s, const server_request *req)
{
    memset(out, 0, sizeof *out);
    char parts[MAX_PATH_PARTS][PART_CHARS];
    int n = req->path != NULL && req->path[0] == '/' ? path_split(parts, req->path) : -1;
    int is_get = strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0;
    int is_post = strcmp(req->method, "POST") == 0;
    if (n < 0) {
        server__fail(out, 404, "no such path");
        return;
    }
    /* Routes taking POST: the rooms, and a room's join and actions. */
    int posts = n >= 2 && strcmp(parts[0], "api") == 0 && strcmp(parts[1], "rooms") == 0 &&
                (n == 2 || (n == 4 && (strcmp(parts[3], "join") == 0 ||
                                       strcmp(parts[3], "actions") == 0 ||
                                       strcmp(parts[3], "seat_message") == 0)));
    if (posts ? !is_post : !is_get) {
        server__fail(out, 405, posts ? "this path takes POST" : "this path takes GET or HEAD");
        out->allow = posts ? "POST" : "GET, HEAD";
        return;
    }
    if (strcmp(req->path, "/favicon.ico") == 0) {
        out->status = 204; /* no icon, and no 404 in the browser's console */
        return;
    }
    if (n == 0 || strcmp(parts[0], "api") != 0) {
        route_static(out, s, req->path);
        return;
    }
    if (n == 2 && strcmp(parts[1], "health") == 0 && is_get) {
        reply rp;
        if (reply_begin(&rp, out, 200) != 0)
            return;
        inspect_json_object_begin(&rp.j);
        inspect_json_member_bool(&rp.j, "ok", 1);
        inspect_json_object_end(&rp.j);
        reply_end(&rp);
        return;
    }
    if (n < 2 || strcmp(parts[1], "rooms") != 0) {
        server__fail(out, 404, "no such path");
        return;
    }
    if (n == 2) {
        route_create(out, s, req);
        return;
    }
    server__room *r;
    if (server__room_of_request(&r, out, s, parts[2]) != 0)
        return;
    const char *what = n >= 4 ? parts[3] : "";
    if (!(n == 4 && strcmp(what, "actions") == 0))
        (void)server__room_sync(s, r); /* another process may have appended; acts find out by a conflict */
    if (n == 3 && is_get) {
        reply rp;
        if (reply_begin(&rp, out, 200) != 0)
            return;
        pthread_mutex_lock(&r->mutex);
        room_json(&rp.j, s, r);
        pthread_mutex_unlock(&r->mutex);
        reply_end(&rp);
    } else if (n == 4 && is_get && strcmp(what, "view") == 0) {
        route_view(out, s, r, req);
    } else if (n == 4 && is_get && strcmp(what, "log") == 0) {
        route_log(out, s, r, req);
    } else if (n == 4 && is_get && strcmp(what, "board.svg") == 0) {
        route_board(out, s, r, req);
    } else if (n == 4 && is_post && strcmp(what, "join") == 0) {
        route_join(out, s, r, req);
    } else if (n == 4 && is_post && strcmp(what, "actions") == 0) {
        route_act(out, s, r, req);
    } else if (n == 4 && is_post && strcmp(what, "seat_message") == 0) {
        route_seat_message(out, s, r, req);
    } else {
        server__fail(out, 404, "no such path");
    }
}
