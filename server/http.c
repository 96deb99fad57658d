/*
 * http.c - the HTTP glue on GNU libmicrohttpd: one thread per connection
 * (a push stream blocks its thread while it waits), bounded bodies and
 * headers, connection and time limits, and a stop that lets the appends
 * in flight commit.
 *
 * Layer: server. The only file that includes microhttpd.h. It turns a
 * request into a server_request for server_handle (api.c) or a push
 * stream (stream.c) and their answers into responses; it decides nothing
 * about rooms. Limits: SERVER_BODY_MAX bytes of body (413 past it),
 * MHD's per-connection memory (headers and buffers) of 32 KiB (431 or
 * 400 past it, said by MHD), SERVER_MAX_CONNECTIONS connections,
 * SERVER_CONNECTION_SECONDS of idleness.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/internal.h"

#define CONNECTION_MEMORY (32u * 1024u)
#define STACK_BYTES (512u * 1024u)
#define KEEPALIVE_MS 15000u
#define QUERY_MAX 512

struct server__http {
    struct MHD_Daemon *daemon;
};

/* What a request accumulates between MHD's calls. */
typedef struct request_ctx {
    char *body;                    /* owned, NUL-terminated */
    size_t len;
    int is_too_big;
} request_ctx;

/* A push stream's state between content reader calls. */
typedef struct stream_ctx {
    server_stream *st;
    char *pending;                 /* owned: bytes not yet handed to MHD */
    size_t len, off;
} stream_ctx;

/* ============================================================ replies */

static enum MHD_Result send_response(struct MHD_Connection *c, server_response *r)
{
    struct MHD_Response *resp = NULL;
    if (r->file_path != NULL) {
        int fd = open(r->file_path, O_RDONLY | O_CLOEXEC);
        struct stat sb;
        if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
            resp = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
        } else {
            if (fd >= 0)
                close(fd);
            server_response_free(r);
            server__fail(r, 404, "no such page");
        }
    }
    if (resp == NULL)
        resp = MHD_create_response_from_buffer(r->body_len, r->body != NULL ? r->body : (char *)"",
                                               MHD_RESPMEM_MUST_COPY);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", r->content_type != NULL ? r->content_type
                                                                        : "application/json");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (r->allow != NULL)
        MHD_add_response_header(resp, "Allow", r->allow);
    enum MHD_Result ret = MHD_queue_response(c, r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    server_response r;
    server__fail(&r, status, msg);
    enum MHD_Result ret = send_response(c, &r);
    server_response_free(&r);
    return ret;
}

/* ============================================================ queries */

typedef struct query_buf {
    char text[QUERY_MAX];
    size_t len;
    int is_too_long;
} query_buf;

/* Appends s: a separator as is, a key or value percent-encoded. */
static void query_add(query_buf *q, const char *s, int is_value)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; p != NULL && *p != '\0'; p++) {
        int plain = !is_value || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.';
        if (q->len + 4 >= sizeof q->text) {
            q->is_too_long = 1;
            return;
        }
        if (plain) {
            q->text[q->len++] = (char)*p;
        } else {
            q->text[q->len++] = '%';
            q->text[q->len++] = hex[*p >> 4];
            q->text[q->len++] = hex[*p & 15];
        }
    }
    q->text[q->len] = '\0';
}

/* MHD parses the query; the handlers read it as one string again. */
static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    query_buf *q = cls;
    if (q->len != 0)
        query_add(q, "&", 0);
    query_add(q, key, 1);
    query_add(q, "=", 0);
    query_add(q, value != NULL ? value : "", 1);
    return MHD_YES;
}

/* ============================================================ streams */

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    stream_ctx *sc = cls;
    if (sc->off == sc->len) {
        free(sc->pending);
        sc->pending = NULL;
        sc->len = sc->off = 0;
        char *next;
        size_t n;
        if (server_stream_next(&next, &n, sc->st, KEEPALIVE_MS) != 0) {
            free(next);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (n == 0) {
            free(next);
            static const char ping[] = ": keep-alive\n\n";
            size_t k = sizeof ping - 1 < max ? sizeof ping - 1 : max;
            memcpy(buf, ping, k);
            return (ssize_t)k;
        }
        sc->pending = next;
        sc->len = n;
    }
    size_t k = sc->len - sc->off < max ? sc->len - sc->off : max;
    memcpy(buf, sc->pending + sc->off, k);
    sc->off += k;
    return (ssize_t)k;
}

static void stream_free(void *cls)
{
    stream_ctx *sc = cls;
    server_stream_close(sc->st);
    free(sc->pending);
    free(sc);
}

static enum MHD_Result open_stream(struct MHD_Connection *c, server *s, const server_request *req)
{
    const char *last = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    char qlast[16];
    if (last == NULL && server__query_get(qlast, sizeof qlast, req->query, "last") == 1)
        last = qlast;
    uint32_t last_seen = SERVER_STREAM_FRESH;
    if (last != NULL) {
        char *end;
        unsigned long v = strtoul(last, &end, 10);
        if (last[0] < '0' || last[0] > '9' || *end != '\0' || v >= UINT32_MAX)
            return send_error(c, 400, "Last-Event-ID: a version");
        last_seen = (uint32_t)v;
    }
    server_response r;
    server_stream *st;
    if (server_stream_open(&st, &r, s, req, last_seen) != 0) {
        enum MHD_Result ret = send_response(c, &r);
        server_response_free(&r);
        return ret;
    }
    stream_ctx *sc = calloc(1, sizeof *sc);
    if (sc == NULL) {
        server_stream_close(st);
        return send_error(c, 500, "out of memory");
    }
    sc->st = st;
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, stream_read, sc, stream_free);
    if (resp == NULL) {
        stream_free(sc);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* ============================================================ requests */

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    server *s = cls;
    request_ctx *rc = *con_cls;
    if (rc == NULL) {
        rc = calloc(1, sizeof *rc);
        if (rc == NULL)
            return MHD_NO;
        *con_cls = rc;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        if (rc->len + *upload_data_size > SERVER_BODY_MAX) {
            rc->is_too_big = 1;
        } else if (!rc->is_too_big) {
            char *b = realloc(rc->body, rc->len + *upload_data_size + 1);
            if (b == NULL)
                return MHD_NO;
            memcpy(b + rc->len, upload_data, *upload_data_size);
            rc->body = b;
            rc->len += *upload_data_size;
            rc->body[rc->len] = '\0';
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rc->is_too_big)
        return send_error(c, 413, "the body is too large");
    query_buf q = {.len = 0};
    q.text[0] = '\0';
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, query_arg, &q);
    if (q.is_too_long)
        return send_error(c, 414, "the query is too long");
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    const char *token = NULL;
    if (auth != NULL) {
        if (strncmp(auth, "Bearer ", 7) != 0)
            return send_error(c, 401, "Authorization: Bearer TOKEN");
        token = auth + 7;
    }
    server_request req = {method, url, q.text, token, rc->body, rc->len};
    size_t ulen = strlen(url);
    if (strcmp(method, "GET") == 0 && ulen > 7 && strcmp(url + ulen - 7, "/events") == 0)
        return open_stream(c, s, &req);
    server_response r;
    server_handle(&r, s, &req);
    enum MHD_Result ret = send_response(c, &r);
    server_response_free(&r);
    return ret;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    request_ctx *rc = *con_cls;
    if (rc != NULL) {
        free(rc->body);
        free(rc);
    }
    *con_cls = NULL;
}

/* ============================================================ lifetime */

int server_listen(server *s, const char *host, unsigned port, unsigned *port_out,
                  char err[SERVER_ERRMSG])
{
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (port > 65535 || inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        snprintf(err, SERVER_ERRMSG, "listen address must be an IPv4 address and a port");
        return SERVER_EINPUT;
    }
    s->http = calloc(1, sizeof *s->http);
    if (s->http == NULL) {
        snprintf(err, SERVER_ERRMSG, "out of memory");
        return SERVER_ERROR;
    }
    s->http->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, (uint16_t)port, NULL,
        NULL, on_request, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)SERVER_MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)SERVER_CONNECTION_SECONDS, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)CONNECTION_MEMORY, MHD_OPTION_THREAD_STACK_SIZE, (size_t)STACK_BYTES,
        MHD_OPTION_END);
    if (s->http->daemon == NULL) {
        snprintf(err, SERVER_ERRMSG, "cannot listen on %s:%u", host, port);
        free(s->http);
        s->http = NULL;
        return SERVER_ERROR;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->http->daemon,
                                                           MHD_DAEMON_INFO_BIND_PORT);
    if (port_out != NULL)
        *port_out = info != NULL ? info->port : port;
    return 0;
}

void server_stop(server *s)
{
    pthread_mutex_lock(&s->rooms_mutex);
    s->is_stopping = 1;
    pthread_cond_broadcast(&s->bot_wake);
    while (s->n_in_flight != 0)
        pthread_cond_wait(&s->idle, &s->rooms_mutex);
    size_t n = s->n_rooms;
    pthread_mutex_unlock(&s->rooms_mutex);
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&s->rooms[i]->mutex);
        pthread_cond_broadcast(&s->rooms[i]->changed);
        pthread_mutex_unlock(&s->rooms[i]->mutex);
    }
    if (s->http != NULL) {
        MHD_stop_daemon(s->http->daemon);
        free(s->http);
        s->http = NULL;
    }
}
