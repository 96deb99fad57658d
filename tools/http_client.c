/*
 * http_client.c - a small HTTP/1.1 client for loopback: one request per
 * connection (Connection: close), and a reader of server-sent events.
 * The bench drives `mentat serve` with it, and the server suites test it.
 *
 * Layer: tools. It speaks only to 127.0.0.1, and only what the server
 * answers: a status line, headers, a body until the connection closes
 * (or, for a push stream, events as they come). Every read has a
 * deadline; a reply larger than TOOL_HTTP_REPLY_MAX is an error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tools/internal.h"

#define REPLY_MAX ((size_t)8 * 1024 * 1024)

/* A connected socket to 127.0.0.1:port, or -1. */
static int connect_loopback(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Sends the request head (and body): 0, or -1. */
static int send_request(int fd, const char *method, const char *path, const char *token,
                        const char *body, const char *extra, int minor, int keep_alive)
{
    size_t blen = body != NULL ? strlen(body) : 0;
    char head[2048];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.%d\r\nHost: 127.0.0.1\r\nConnection: %s\r\n"
                     "%s%s%s%s"
                     "Content-Length: %zu\r\n%s\r\n",
                     method, path, minor, keep_alive ? "keep-alive" : "close", token != NULL ? "Authorization: Bearer " : "",
                     token != NULL ? token : "", token != NULL ? "\r\n" : "",
                     blen != 0 ? "Content-Type: application/json\r\n" : "", blen,
                     extra != NULL ? extra : "");
    if (n < 0 || (size_t)n >= sizeof head)
        return -1;
    if (send_all(fd, head, (size_t)n) != 0)
        return -1;
    return blen != 0 ? send_all(fd, body, blen) : 0;
}

/* One read into r (grown as needed) within timeout_ms: bytes read, 0 at
 * the end of the stream, -1 on an error or nothing in time. */
static ssize_t read_once(int fd, tool_http_reply *r, int timeout_ms)
{
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int k = poll(&p, 1, timeout_ms);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        if (r->raw == NULL || r->raw_len + 65536 + 1 > r->cap) {
            size_t cap = r->cap == 0 ? 131072 : r->cap * 2;
            if (cap > REPLY_MAX)
                return -1;
            char *b = realloc(r->raw, cap);
            if (b == NULL)
                return -1;
            r->raw = b;
            r->cap = cap;
        }
        ssize_t n = recv(fd, r->raw + r->raw_len, 65536, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0) {
            r->raw_len += (size_t)n;
            r->raw[r->raw_len] = '\0';
        }
        return n;
    }
}

/* Reads into r until it ends (EOF) or holds `until` (NULL = EOF only),
 * within timeout_ms a read: bytes held, or -1. */
static ssize_t read_some(int fd, tool_http_reply *r, int timeout_ms, const char *until)
{
    for (;;) {
        if (until != NULL && r->raw != NULL && strstr(r->raw, until) != NULL)
            return (ssize_t)r->raw_len;
        ssize_t n = read_once(fd, r, timeout_ms);
        if (n < 0)
            return -1;
        if (n == 0)
            return until == NULL ? (ssize_t)r->raw_len : -1;
    }
}

/* The status and the body's start from the head in r->raw. */
static int parse_head(tool_http_reply *r)
{
    unsigned status;
    if (r->raw == NULL || sscanf(r->raw, "HTTP/1.%*c %u", &status) != 1)
        return -1;
    r->status = status;
    char *end = strstr(r->raw, "\r\n\r\n");
    if (end == NULL)
        return -1;
    r->body = end + 4;
    r->body_len = r->raw_len - (size_t)(r->body - r->raw);
    return 0;
}

int tool_http_request(tool_http_reply *out, unsigned port, const char *method, const char *path,
                      const char *token, const char *body, int timeout_ms)
{
    memset(out, 0, sizeof *out);
    int fd = connect_loopback(port);
    if (fd < 0)
        return -1;
    int rc = send_request(fd, method, path, token, body, NULL, 1, 0);
    if (rc == 0 && read_some(fd, out, timeout_ms, NULL) < 0)
        rc = -1;
    close(fd);
    if (rc == 0)
        rc = parse_head(out);
    if (rc != 0)
        tool_http_reply_free(out);
    return rc;
}

void tool_http_reply_free(tool_http_reply *r)
{
    free(r->raw);
    memset(r, 0, sizeof *r);
}

/* ============================================================ streams */

int tool_http_stream_open(tool_http_stream *out, unsigned port, const char *path,
                          const char *token, const char *last_event_id, int timeout_ms)
{
    memset(out, 0, sizeof *out);
    out->fd = connect_loopback(port);
    if (out->fd < 0)
        return -1;
    char extra[64] = "";
    if (last_event_id != NULL)
        snprintf(extra, sizeof extra, "Last-Event-ID: %.20s\r\n", last_event_id);
    if (send_request(out->fd, "GET", path, token, NULL, extra, 0, 0) != 0 ||
        read_some(out->fd, &out->buf, timeout_ms, "\r\n\r\n") < 0 || parse_head(&out->buf) != 0) {
        tool_http_stream_close(out);
        return -1;
    }
    out->status = out->buf.status;
    out->off = (size_t)(out->buf.body - out->buf.raw);
    return 0;
}

/* The stream is asked for over HTTP/1.0, so its body comes unchunked,
 * as the events themselves, until the server closes it. */
int tool_http_stream_next(char **data_out, uint32_t *id_out, tool_http_stream *st, int timeout_ms)
{
    *data_out = NULL;
    for (;;) {
        char *start = st->buf.raw + st->off;
        char *end = strstr(start, "\n\n");
        if (end != NULL) {
            *end = '\0';
            char *id = strstr(start, "id: ");
            char *data = strstr(start, "data: ");
            st->off = (size_t)(end + 2 - st->buf.raw);
            if (data == NULL)
                continue; /* a keep-alive comment */
            if (id != NULL && id_out != NULL)
                *id_out = (uint32_t)strtoul(id + 4, NULL, 10);
            data += 6;
            char *nl = strpbrk(data, "\r\n");
            size_t n = nl != NULL ? (size_t)(nl - data) : strlen(data);
            *data_out = malloc(n + 1);
            if (*data_out == NULL)
                return -1;
            memcpy(*data_out, data, n);
            (*data_out)[n] = '\0';
            return 0;
        }
        /* Keep what is unread at the front, then read more. */
        size_t left = st->buf.raw_len - st->off;
        memmove(st->buf.raw, st->buf.raw + st->off, left + 1);
        st->buf.raw_len = left;
        st->off = 0;
        size_t before = st->buf.raw_len;
        if (read_some(st->fd, &st->buf, timeout_ms, "\n\n") < 0 && st->buf.raw_len == before)
            return -1;
    }
}

void tool_http_stream_close(tool_http_stream *st)
{
    if (st->fd > 0)
        close(st->fd);
    tool_http_reply_free(&st->buf);
    st->fd = -1;
}

/* ======================================================= keep-alive */

/* Reads one reply of known length (Content-Length) on a kept-alive
 * connection: 0, or -1 (closed, malformed, late). */
static int read_reply(int fd, tool_http_reply *r, int timeout_ms)
{
    if (read_some(fd, r, timeout_ms, "\r\n\r\n") < 0 || parse_head(r) != 0)
        return -1;
    const char *cl = strstr(r->raw, "\r\nContent-Length:"); /* as MHD writes it */
    if (cl == NULL || cl > r->body)
        return -1;
    size_t want = (size_t)strtoul(cl + 17, NULL, 10);
    size_t head = (size_t)(r->body - r->raw);
    while (r->raw_len < head + want)
        if (read_once(fd, r, timeout_ms) <= 0)
            return -1;
    r->body = r->raw + head;
    r->body_len = want;
    r->raw[head + want] = '\0';
    return 0;
}

int tool_http_conn_request(tool_http_reply *out, tool_http_conn *c, const char *method,
                           const char *path, const char *token, const char *body, int timeout_ms)
{
    memset(out, 0, sizeof *out);
    for (int attempt = 0; attempt < 2; attempt++) {
        if (c->fd <= 0 && (c->fd = connect_loopback(c->port)) < 0)
            return -1;
        if (send_request(c->fd, method, path, token, body, NULL, 1, 1) == 0 &&
            read_reply(c->fd, out, timeout_ms) == 0)
            return 0;
        /* The server closed the connection (idle, or stopping): once more
         * on a new one (an action retried at the same version is
         * answered its first receipt). */
        tool_http_reply_free(out);
        tool_http_conn_close(c);
    }
    return -1;
}

void tool_http_conn_close(tool_http_conn *c)
{
    if (c->fd > 0)
        close(c->fd);
    c->fd = -1;
}
