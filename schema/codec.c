/*
 * codec.c - the protobuf codec: wire bytes of schema/mentat.proto <-> the
 * engine's plain C types and the codec_* records of schema.h.
 *
 * Layer: schema. The only file of Mentat that includes protobuf-c headers.
 * It translates and validates; it never signs, hashes, stores or decides a
 * rule, and never asserts on input bytes.
 *
 * Invariants:
 * (1) Decoding is strict. Before protobuf-c sees the bytes, wire_check()
 *     walks them against the message descriptors and refuses, naming the
 *     field: malformed or truncated fields, unknown fields, a wire type
 *     that does not match the field, a non-repeated field or a oneof set
 *     twice, a value too wide for its field, a NUL inside a string and a
 *     missing required field. After unpacking, each record's validator
 *     refuses *_UNSPECIFIED and out-of-range enums, byte fields of the
 *     wrong length, bad room codes and out-of-range action arguments.
 * (2) Because of (1) a length-delimited field occurs at most once, so a
 *     borrowed byte field (Genesis.position, Checkpoint.state,
 *     ArchiveRecord.genesis/event) is found in `in` by wire_find().
 * (3) An encoder refuses (SCHEMA_ERROR) any record its decoder would
 *     refuse: nothing we write is unreadable.
 * (4) Action variant field number = engine_action_kind for kinds 1..48;
 *     later kinds take field numbers from the ranges engineers are given,
 *     through kind_wire[] (kind 49 is field 100); the variant's fields are
 *     the action's arguments in order; action_bind() is the one place a
 *     kind meets its variant.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schema/internal.h"
#include "schema/schema.h"

#include "mentat.pb-c.h"

/* (4): the oneof field numbers are the engine's kinds, up to kind 48. */
#define SAME_KIND(k) \
    _Static_assert((int)MENTAT__ACTION__KIND_##k == ENGINE_ACTION_##k, "Action variant number = kind")
SAME_KIND(PREDICT);
SAME_KIND(TRAITOR_PICK);
SAME_KIND(FREMEN_PLACE);
SAME_KIND(BG_PLACE);
SAME_KIND(STORM_DIAL);
SAME_KIND(ALLIANCE_PROPOSE);
SAME_KIND(ALLIANCE_ACCEPT);
SAME_KIND(ALLIANCE_REFUSE);
SAME_KIND(ALLIANCE_BREAK);
SAME_KIND(NEXUS_DONE);
SAME_KIND(WORM_RIDE);
SAME_KIND(WORM_RIDE_PASS);
SAME_KIND(CHARITY_CLAIM);
SAME_KIND(CHARITY_DECLINE);
SAME_KIND(ALLY_SUPPORT);
SAME_KIND(BID);
SAME_KIND(BID_PASS);
SAME_KIND(KARAMA_TAKE);
SAME_KIND(EMPEROR_REVIVAL);
SAME_KIND(REVIVE);
SAME_KIND(GHOLA);
SAME_KIND(SHIP);
SAME_KIND(FREMEN_SEND);
SAME_KIND(CROSS_SHIP);
SAME_KIND(SHIP_BACK);
SAME_KIND(SHIP_PASS);
SAME_KIND(BG_SEND);
SAME_KIND(MOVE);
SAME_KIND(HAJR_MOVE);
SAME_KIND(MOVE_PASS);
SAME_KIND(BATTLE_CHOOSE);
SAME_KIND(PRESCIENCE);
SAME_KIND(PRESCIENCE_PASS);
SAME_KIND(PRESCIENCE_ANSWER);
SAME_KIND(VOICE);
SAME_KIND(VOICE_PASS);
SAME_KIND(KARAMA_CANCEL);
SAME_KIND(KARAMA_ALLOW);
SAME_KIND(BATTLE_PLAN);
SAME_KIND(TRAITOR_CALL);
SAME_KIND(KEEP_CARDS);
SAME_KIND(WEATHER_CONTROL);
SAME_KIND(FAMILY_ATOMICS);
SAME_KIND(STORM_CARDS_PASS);
SAME_KIND(TRUTHTRANCE);
SAME_KIND(TRUTHTRANCE_ANSWER);
SAME_KIND(SHIP_KARAMA_FROM);
SAME_KIND(SHIP_KARAMA_ANSWER);
#undef SAME_KIND
#define FIRST_RANGED_KIND ENGINE_ACTION_FREMEN_PROTECT_ALLY
/* Kinds from FIRST_RANGED_KIND on: their Action field numbers. */
static const uint16_t kind_wire[ENGINE_ACTION_KIND_COUNT - FIRST_RANGED_KIND] = {
    MENTAT__ACTION__KIND_FREMEN_PROTECT_ALLY, /* ENGINE_ACTION_FREMEN_PROTECT_ALLY */
    MENTAT__ACTION__KIND_FREMEN_ALLY_REVIVAL, /* ENGINE_ACTION_FREMEN_ALLY_REVIVAL */
    MENTAT__ACTION__KIND_KARAMA_POLICY,       /* ENGINE_ACTION_KARAMA_POLICY */
    MENTAT__ACTION__KIND_NEXUS_DRAW,          /* ENGINE_ACTION_NEXUS_DRAW */
    MENTAT__ACTION__KIND_POWER,               /* ENGINE_ACTION_POWER */
    MENTAT__ACTION__KIND_ANSWER,              /* ENGINE_ACTION_ANSWER */
};
_Static_assert(ENGINE_ACTION_FREMEN_ALLY_REVIVAL == FIRST_RANGED_KIND + 1 &&
               ENGINE_ACTION_KARAMA_POLICY == FIRST_RANGED_KIND + 2 &&
               ENGINE_ACTION_NEXUS_DRAW == FIRST_RANGED_KIND + 3 &&
               ENGINE_ACTION_POWER == FIRST_RANGED_KIND + 4 &&
               ENGINE_ACTION_ANSWER == FIRST_RANGED_KIND + 5, "kind_wire in kind order");
_Static_assert(sizeof kind_wire / sizeof kind_wire[0] == ENGINE_ACTION_KIND_COUNT - FIRST_RANGED_KIND,
               "a field number for every kind from FIRST_RANGED_KIND on");

/* The Action field number of an engine kind (1..KIND_COUNT-1). */
static unsigned kind_to_wire(unsigned kind)
{
    return kind < FIRST_RANGED_KIND ? kind : kind_wire[kind - FIRST_RANGED_KIND];
}

/* The engine kind of an Action field number, ENGINE_ACTION_NONE if none. */
static unsigned wire_to_kind(unsigned field)
{
    if (field < FIRST_RANGED_KIND)
        return field;
    for (unsigned k = FIRST_RANGED_KIND; k < ENGINE_ACTION_KIND_COUNT; k++)
        if (kind_wire[k - FIRST_RANGED_KIND] == field)
            return k;
    return ENGINE_ACTION_NONE;
}
_Static_assert(ENGINE_ACTION_KIND_COUNT == 55,
               "a new action kind needs its Action variant in mentat.proto and a case in action_bind()");
/* Faction on the wire = engine faction + 1. */
_Static_assert((int)MENTAT__FACTION__ATREIDES == ENGINE_FACTION_ATREIDES + 1, "faction numbering");
_Static_assert((int)MENTAT__FACTION__GUILD == ENGINE_FACTION_GUILD + 1, "faction numbering");
_Static_assert((int)MENTAT__FACTION__MORITANI == ENGINE_FACTION_MORITANI + 1, "faction numbering");
_Static_assert(ENGINE_FACTION_COUNT == (int)MENTAT__FACTION__MORITANI, "one Faction value per engine faction");
/* Module m is engine_config.modules bit 1 << (m - 1). */
#define MODULE_LAST ((int)MENTAT__MODULE__EXPANSION_TREACHERY)
_Static_assert(MODULE_LAST <= SCHEMA_MAX_MODULES && MODULE_LAST < 32, "modules fit the mask");
/* ArchiveRecord oneof field numbers are codec_archive_kind. */
_Static_assert((int)MENTAT__ARCHIVE_RECORD__RECORD_HEADER == CODEC_ARCHIVE_HEADER, "archive kinds");
_Static_assert((int)MENTAT__ARCHIVE_RECORD__RECORD_KEY == CODEC_ARCHIVE_KEY, "archive kinds");
_Static_assert((int)MENTAT__ARCHIVE_RECORD__RECORD_GENESIS == CODEC_ARCHIVE_GENESIS, "archive kinds");
_Static_assert((int)MENTAT__ARCHIVE_RECORD__RECORD_EVENT == CODEC_ARCHIVE_EVENT, "archive kinds");
_Static_assert((int)MENTAT__ARCHIVE_RECORD__RECORD_REVEALED_SEED == CODEC_ARCHIVE_REVEALED_SEED, "archive kinds");
_Static_assert((int)MENTAT__ARCHIVE_RECORD__RECORD_TRAILER == CODEC_ARCHIVE_TRAILER, "archive kinds");
_Static_assert(ENGINE_SEED_BYTES == SCHEMA_HASH_BYTES, "a revealed seed is as long as its commitment");

#define PATH_MAX_CHARS 96

static const char room_alphabet[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/* out = "a.b", the path of field b of message a; a long path is cut.
 * The bytes snprintf("%s.%s") would write, without its cost: wire_check
 * joins a path for every field it reads, so this is on every decode. */
static void path_join(char out[PATH_MAX_CHARS], const char *a, const char *b)
{
    size_t n = strnlen(a, PATH_MAX_CHARS - 1);
    memcpy(out, a, n);
    if (n < PATH_MAX_CHARS - 1)
        out[n++] = '.';
    size_t n_b = strnlen(b, PATH_MAX_CHARS - 1 - n);
    memcpy(out + n, b, n_b);
    out[n + n_b] = '\0';
}

/* ============================================================= shared */

int codec__fail(char *err, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, SCHEMA_ERRMSG, fmt, ap);
        va_end(ap);
    }
    return SCHEMA_EDECODE;
}

/* The range of engine_arg_type `type`. */
static void type_range(int32_t *lo_out, int32_t *hi_out, unsigned type)
{
    *lo_out = 0;
    *hi_out = -1;              /* an unknown type admits nothing */
    switch ((engine_arg_type)type) {
    case ENGINE_ARG_INT:
        *hi_out = INT16_MAX;
        break;
    case ENGINE_ARG_FACTION:
        *hi_out = ENGINE_FACTION_COUNT - 1;
        break;
    case ENGINE_ARG_LEADER:            /* -1: no leader (revive, ghola, battle plans) */
        *lo_out = CODEC_NONE;
        *hi_out = ENGINE_LEADER_COUNT - 1;
        break;
    case ENGINE_ARG_TERRITORY:
        *hi_out = ENGINE_TERRITORY_COUNT - 1;
        break;
    case ENGINE_ARG_LOCATION:
        *hi_out = ENGINE_LOCATION_COUNT - 1;
        break;
    case ENGINE_ARG_CARD:              /* -1: no card (battle plans) */
        *lo_out = CODEC_NONE;
        *hi_out = ENGINE_TREACHERY_MAX - 1;
        break;
    case ENGINE_ARG_SIGNED:
        *lo_out = INT16_MIN;
        *hi_out = INT16_MAX;
        break;
    case ENGINE_ARG_COUNT1:            /* n + 1; 0 absent */
        *hi_out = INT16_MAX;
        break;
    }
}

/* ================================================ the wire, read by hand */

typedef enum wire_type {
    WIRE_VARINT = 0,
    WIRE_FIXED64 = 1,
    WIRE_LEN = 2,
    WIRE_FIXED32 = 5
} wire_type;

/* Reads a varint of at most 64 bits at *pos: 0, or -1 if truncated or
 * wider. */
static int wire_varint(uint64_t *out, const uint8_t *in, size_t len, size_t *pos)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift <= 63; shift += 7) {
        uint8_t b;
        if (*pos >= len)
            return -1;
        b = in[(*pos)++];
        if (shift == 63 && b > 1)
            return -1;
        v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* Reads the next field at *pos: its number, wire type, varint value or
 * the span of its payload. 0, or -1 if malformed. */
typedef struct wire_field {
    uint64_t id;               /* field number, >= 1 */
    unsigned type;             /* wire_type */
    uint64_t value;            /* WIRE_VARINT, WIRE_FIXED32/64 (little endian) */
    const uint8_t *data;       /* WIRE_LEN: payload, inside `in` */
    size_t data_len;
} wire_field;

static int wire_next(wire_field *f, const uint8_t *in, size_t len, size_t *pos)
{
    uint64_t key, n;
    if (wire_varint(&key, in, len, pos) != 0)
        return -1;
    f->id = key >> 3;
    f->type = (unsigned)(key & 7);
    f->value = 0;
    f->data = NULL;
    f->data_len = 0;
    if (f->id == 0 || f->id > 536870911u)
        return -1;
    switch ((wire_type)f->type) {
    case WIRE_VARINT:
        return wire_varint(&f->value, in, len, pos);
    case WIRE_FIXED64:
    case WIRE_FIXED32:
        n = f->type == WIRE_FIXED64 ? 8 : 4;
        if (len - *pos < n)
            return -1;
        for (unsigned i = 0; i < n; i++)
            f->value |= (uint64_t)in[*pos + i] << (8 * i);
        *pos += (size_t)n;
        return 0;
    case WIRE_LEN:
        if (wire_varint(&n, in, len, pos) != 0 || n > len - *pos)
            return -1;
        f->data = in + *pos;
        f->data_len = (size_t)n;
        *pos += (size_t)n;
        return 0;
    }
    return -1;                 /* groups (3, 4) and 6, 7 */
}

/* The wire type protobuf gives a field of protobuf-c type `t`. */
static unsigned wire_type_of(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return WIRE_FIXED64;
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        return WIRE_FIXED32;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
        return WIRE_LEN;
    default:                   /* protobuf-c's enum, not ours: the varints */
        return WIRE_VARINT;
    }
}

/* Refuses a varint too wide for its field (protobuf-c would truncate it
 * silently) and a bool other than 0 or 1. */
static int wire_varint_check(const ProtobufCFieldDescriptor *fd, uint64_t v,
                             const char *path, char *err)
{
    switch (fd->type) {
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_SINT32:
        if (v > UINT32_MAX)
            return codec__fail(err, "%s: value out of range", path);
        return SCHEMA_OK;
    case PROTOBUF_C_TYPE_ENUM:
        /* every enum of ours is small and positive */
        if (v > INT32_MAX)
            return codec__fail(err, "%s: value out of range", path);
        return SCHEMA_OK;
    case PROTOBUF_C_TYPE_BOOL:
        if (v > 1)
            return codec__fail(err, "%s: boolean value %llu", path, (unsigned long long)v);
        return SCHEMA_OK;
    default:
        return SCHEMA_OK;
    }
}

/* The elements of a packed repeated field. */
static int wire_packed_check(const ProtobufCFieldDescriptor *fd, const uint8_t *data,
                             size_t len, const char *path, char *err)
{
    size_t pos = 0;
    unsigned wt = wire_type_of(fd->type);
    if (wt == WIRE_FIXED32 || wt == WIRE_FIXED64) {
        if (len % (wt == WIRE_FIXED32 ? 4u : 8u) != 0)
            return codec__fail(err, "%s: truncated packed field", path);
        return SCHEMA_OK;
    }
    while (pos < len) {
        uint64_t v;
        int rc;
        if (wire_varint(&v, data, len, &pos) != 0)
            return codec__fail(err, "%s: truncated packed field", path);
        rc = wire_varint_check(fd, v, path, err);
        if (rc != 0)
            return rc;
    }
    return SCHEMA_OK;
}

/* (1): walks message `d` in in[0..len) and refuses what protobuf-c would
 * refuse or silently accept, naming the field; `path` names the message. */
static int wire_check(const ProtobufCMessageDescriptor *d, const uint8_t *in, size_t len,
                      const char *path, char *err)
{
    uint64_t seen = 0;         /* bit per field index of d */
    size_t pos = 0;
    char fpath[PATH_MAX_CHARS];

    assert(d->n_fields <= 64);
    while (pos < len) {
        const ProtobufCFieldDescriptor *fd;
        wire_field f;
        size_t at = pos;
        unsigned idx;
        int rc;

        if (wire_next(&f, in, len, &pos) != 0) {
            /* name the field if its tag at least is readable */
            size_t p2 = at;
            uint64_t key;
            if (wire_varint(&key, in, len, &p2) == 0 && (key >> 3) != 0
                && (fd = protobuf_c_message_descriptor_get_field(d, (unsigned)(key >> 3))) != NULL)
                return codec__fail(err, "%s.%s: truncated or malformed at byte %zu",
                                   path, fd->name, at);
            return codec__fail(err, "%s: truncated or malformed at byte %zu", path, at);
        }
        fd = protobuf_c_message_descriptor_get_field(d, (unsigned)f.id);
        if (fd == NULL) {
            if (d == &mentat__action__descriptor)
                return codec__fail(err, "%s: unknown action kind %llu", path,
                                   (unsigned long long)f.id);
            return codec__fail(err, "%s: unknown field %llu", path, (unsigned long long)f.id);
        }
        idx = (unsigned)(fd - d->fields);
        path_join(fpath, path, fd->name);

        if (f.type != wire_type_of(fd->type)
            && !(fd->label == PROTOBUF_C_LABEL_REPEATED && f.type == WIRE_LEN))
            return codec__fail(err, "%s: wire type %u, expected %u", fpath, f.type,
                               wire_type_of(fd->type));
        if (fd->label != PROTOBUF_C_LABEL_REPEATED && (seen >> idx & 1u) != 0)
            return codec__fail(err, "%s: field occurs twice", fpath);
        if ((fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0) {
            for (unsigned j = 0; j < d->n_fields; j++)
                if ((seen >> j & 1u) != 0 && (d->fields[j].flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0
                    && d->fields[j].quantifier_offset == fd->quantifier_offset)
                    return codec__fail(err, "%s: %s already set", fpath, d->fields[j].name);
        }
        seen |= (uint64_t)1 << idx;

        rc = SCHEMA_OK;
        if (f.type == WIRE_VARINT)
            rc = wire_varint_check(fd, f.value, fpath, err);
        else if (f.type == WIRE_LEN && fd->type == PROTOBUF_C_TYPE_MESSAGE)
            rc = wire_check(fd->descriptor, f.data, f.data_len, fpath, err);
        else if (f.type == WIRE_LEN && fd->type == PROTOBUF_C_TYPE_STRING) {
            if (memchr(f.data, 0, f.data_len) != NULL)
                rc = codec__fail(err, "%s: NUL byte in string", fpath);
        } else if (f.type == WIRE_LEN && fd->type != PROTOBUF_C_TYPE_BYTES)
            rc = wire_packed_check(fd, f.data, f.data_len, fpath, err);
        if (rc != 0)
            return rc;
    }
    for (unsigned i = 0; i < d->n_fields; i++)
        if (d->fields[i].label == PROTOBUF_C_LABEL_REQUIRED && (seen >> i & 1u) == 0)
            return codec__fail(err, "%s.%s: missing required field", path, d->fields[i].name);
    return SCHEMA_OK;
}

/* (2): the payload of top-level field `id` in in[0..len), or NULL. */
static const uint8_t *wire_find(size_t *len_out, const uint8_t *in, size_t len, uint64_t id)
{
    size_t pos = 0;
    while (pos < len) {
        wire_field f;
        if (wire_next(&f, in, len, &pos) != 0)
            return NULL;
        if (f.id == id && f.type == WIRE_LEN) {
            *len_out = f.data_len;
            return f.data;
        }
    }
    return NULL;
}

/* ==================================================== decoding helpers */

typedef int (*from_wire_fn)(void *out, ProtobufCMessage *msg, const uint8_t *in,
                            size_t len, char *err);

/* The shape of every decoder: wire_check, unpack, validate, free. On
 * failure `out` is zeroed. */
static int decode(void *out, size_t out_size, const ProtobufCMessageDescriptor *d,
                  from_wire_fn from_wire, const uint8_t *in, size_t len, char *err)
{
    static const uint8_t empty[1];
    ProtobufCMessage *msg;
    int rc;

    assert(in != NULL || len == 0);
    memset(out, 0, out_size);
    if (in == NULL)
        in = empty;
    rc = wire_check(d, in, len, d->short_name, err);
    if (rc != 0)
        return rc;
    msg = protobuf_c_message_unpack(d, NULL, len, in);
    if (msg == NULL) {
        /* wire_check admitted it: what is left is allocation failure */
        if (err != NULL)
            snprintf(err, SCHEMA_ERRMSG, "%s: protobuf-c could not unpack the message", d->short_name);
        return SCHEMA_ERROR;
    }
    if (msg->n_unknown_fields != 0)
        rc = codec__fail(err, "%s: unknown field %u", d->short_name, msg->unknown_fields[0].tag);
    else
        rc = from_wire(out, msg, in, len, err);
    protobuf_c_message_free_unpacked(msg, NULL);
    if (rc != 0)
        memset(out, 0, out_size);
    return rc;
}

static int no_unknown_fields(const ProtobufCMessage *m, const char *path, char *err)
{
    if (m->n_unknown_fields != 0)
        return codec__fail(err, "%s: unknown field %u", path, m->unknown_fields[0].tag);
    return SCHEMA_OK;
}

static int bytes_from_wire(uint8_t *out, size_t want, const ProtobufCBinaryData *b,
                           const char *path, char *err)
{
    if (b->len != want)
        return codec__fail(err, "%s: expected %zu bytes, got %zu", path, want, b->len);
    memcpy(out, b->data, want);
    return SCHEMA_OK;
}

/* 1 if `room` is exactly SCHEMA_ROOM_CHARS characters of the alphabet. */
static int room_is_valid(const char *room, size_t len)
{
    if (len != SCHEMA_ROOM_CHARS)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (room[i] == '\0' || strchr(room_alphabet, room[i]) == NULL)
            return 0;
    return 1;
}

static int room_from_wire(char out[SCHEMA_ROOM_CHARS + 1], const char *room,
                          const char *path, char *err)
{
    size_t len = strlen(room);
    if (len != SCHEMA_ROOM_CHARS)
        return codec__fail(err, "%s: expected %d characters, got %zu", path,
                           SCHEMA_ROOM_CHARS, len);
    for (size_t i = 0; i < len; i++)
        if (strchr(room_alphabet, room[i]) == NULL)
            return codec__fail(err, "%s: character %zu is not in the room alphabet", path, i + 1);
    memcpy(out, room, SCHEMA_ROOM_CHARS + 1);
    return SCHEMA_OK;
}

/* A proto enum: 1..last; 0 is *_UNSPECIFIED and refused like the rest. */
static int enum_from_wire(int v, int last, const char *path, char *err)
{
    if (v == 0) {
        codec__fail(err, "%s: unspecified", path);
        return SCHEMA_EDECODE; /* spelled out: callers rely on 1 <= v <= last */
    }
    if (v < 1 || v > last) {
        codec__fail(err, "%s: value %d out of range 1..%d", path, v, last);
        return SCHEMA_EDECODE;
    }
    return SCHEMA_OK;
}

/* Seat on the wire: 0 = the engine, 1..ENGINE_MAX_SEATS = seat index + 1. */
static int seat_from_wire(uint8_t *out, uint32_t wire, const char *path, char *err)
{
    if (wire > ENGINE_MAX_SEATS)
        return codec__fail(err, "%s: value %u out of range 0..%d", path, wire, ENGINE_MAX_SEATS);
    *out = wire == 0 ? ENGINE_SEAT_ENGINE : (uint8_t)(wire - 1);
    return SCHEMA_OK;
}

/* ==================================================== encoding helpers */

/* protobuf-c's pack only reads through .data; the cast drops a const its
 * struct cannot spell. */
static ProtobufCBinaryData bin(const uint8_t *p, size_t n)
{
    ProtobufCBinaryData b;
    b.len = n;
    b.data = (uint8_t *)(uintptr_t)p; /* NOLINT(performance-no-int-to-ptr) */
    return b;
}

static int pack(uint8_t *out, size_t cap, size_t *len_out, const ProtobufCMessage *m)
{
    size_t need = protobuf_c_message_get_packed_size(m);
    *len_out = need;
    if (need > cap)
        return SCHEMA_ESPACE;
    if (need > 0)
        protobuf_c_message_pack(m, out);
    return SCHEMA_OK;
}

/* A room of a struct: NUL-terminated within its array, and valid. */
static int room_to_wire(char out[SCHEMA_ROOM_CHARS + 1], const char room[SCHEMA_ROOM_CHARS + 1])
{
    const char *nul = memchr(room, 0, SCHEMA_ROOM_CHARS + 1);
    if (nul == NULL || !room_is_valid(room, (size_t)(nul - room)))
        return SCHEMA_ERROR;
    memcpy(out, room, SCHEMA_ROOM_CHARS + 1);
    return SCHEMA_OK;
}

static int seat_to_wire(uint32_t *out, uint8_t seat)
{
    if (seat == ENGINE_SEAT_ENGINE)
        *out = 0;
    else if (seat < ENGINE_MAX_SEATS)
        *out = (uint32_t)seat + 1;
    else
        return SCHEMA_ERROR;
    return SCHEMA_OK;
}

/* ============================================================= actions */

/* Every variant, one of which an Action being encoded points at. */
typedef union wire_variant {
    Mentat__Predict predict;
    Mentat__TraitorPick traitor_pick;
    Mentat__FremenPlace fremen_place;
    Mentat__BgPlace bg_place;
    Mentat__StormDial storm_dial;
    Mentat__AlliancePropose alliance_propose;
    Mentat__AllianceAccept alliance_accept;
    Mentat__AllianceRefuse alliance_refuse;
    Mentat__AllianceBreak alliance_break;
    Mentat__NexusDone nexus_done;
    Mentat__WormRide worm_ride;
    Mentat__WormRidePass worm_ride_pass;
    Mentat__CharityClaim charity_claim;
    Mentat__CharityDecline charity_decline;
    Mentat__AllySupport ally_support;
    Mentat__Bid bid;
    Mentat__BidPass bid_pass;
    Mentat__KaramaTake karama_take;
    Mentat__EmperorRevival emperor_revival;
    Mentat__Revive revive;
    Mentat__Ghola ghola;
    Mentat__Ship ship;
    Mentat__FremenSend fremen_send;
    Mentat__CrossShip cross_ship;
    Mentat__ShipBack ship_back;
    Mentat__ShipPass ship_pass;
    Mentat__BgSend bg_send;
    Mentat__Move move;
    Mentat__HajrMove hajr_move;
    Mentat__MovePass move_pass;
    Mentat__BattleChoose battle_choose;
    Mentat__Prescience prescience;
    Mentat__PresciencePass prescience_pass;
    Mentat__PrescienceAnswer prescience_answer;
    Mentat__Voice voice;
    Mentat__VoicePass voice_pass;
    Mentat__KaramaCancel karama_cancel;
    Mentat__KaramaAllow karama_allow;
    Mentat__BattlePlan battle_plan;
    Mentat__TraitorCall traitor_call;
    Mentat__KeepCards keep_cards;
    Mentat__WeatherControl weather_control;
    Mentat__FamilyAtomics family_atomics;
    Mentat__StormCardsPass storm_cards_pass;
    Mentat__Truthtrance truthtrance;
    Mentat__TruthtranceAnswer truthtrance_answer;
    Mentat__ShipKaramaFrom ship_karama_from;
    Mentat__ShipKaramaAnswer ship_karama_answer;
    Mentat__FremenProtectAlly fremen_protect_ally;
    Mentat__FremenAllyRevival fremen_ally_revival;
    Mentat__KaramaPolicy karama_policy;
    Mentat__NexusDraw nexus_draw;
    Mentat__Power power;
    Mentat__Answer answer;
} wire_variant;

/* Where the arguments of one action live in its variant: argument i is
 * exactly one of a uint32 field (never negative), a sint32 field or a
 * Faction field (engine faction + 1). */
typedef struct action_binding {
    ProtobufCMessage *variant;                        /* NULL: no such kind */
    uint32_t *num[ENGINE_ACTION_MAX_ARGS];
    int32_t *snum[ENGINE_ACTION_MAX_ARGS];
    Mentat__Faction *faction[ENGINE_ACTION_MAX_ARGS];
    protobuf_c_boolean *has[ENGINE_ACTION_MAX_ARGS]; /* an optional argument's presence */
} action_binding;

/* The seven positional arguments of a generic kind's message (Power,
 * Answer): fixed-width, present when not 0. */
#define BIND_GENERIC_ARGS(b, m)    \
    do {                           \
        (b)->snum[1] = &(m)->arg1; \
        (b)->snum[2] = &(m)->arg2; \
        (b)->snum[3] = &(m)->arg3; \
        (b)->snum[4] = &(m)->arg4; \
        (b)->snum[5] = &(m)->arg5; \
        (b)->snum[6] = &(m)->arg6; \
        (b)->snum[7] = &(m)->arg7; \
        (b)->has[1] = &(m)->has_arg1; \
        (b)->has[2] = &(m)->has_arg2; \
        (b)->has[3] = &(m)->has_arg3; \
        (b)->has[4] = &(m)->has_arg4; \
        (b)->has[5] = &(m)->has_arg5; \
        (b)->has[6] = &(m)->has_arg6; \
        (b)->has[7] = &(m)->has_arg7; \
    } while (0)

#define ATTACH(field, init)                     \
    do {                                        \
        if (store != NULL) {                    \
            init(&store->field);                \
            pb->field = &store->field;          \
        }                                       \
        b->variant = &pb->field->base;          \
    } while (0)

/* (4): the one switch over action kinds. Binds argument i of `kind` to its
 * field in the variant of `pb`. Encoding passes `store`, from which the
 * variant is first made; decoding passes NULL and pb already holds it.
 * A new kind: its Action variant in mentat.proto, a case here. */
static void action_bind(action_binding *b, Mentat__Action *pb, wire_variant *store,
                        unsigned kind)
{
    memset(b, 0, sizeof *b);
    switch ((engine_action_kind)kind) {
    case ENGINE_ACTION_NONE:
    case ENGINE_ACTION_KIND_COUNT:
        return;
    case ENGINE_ACTION_PREDICT:            /* faction, turn */
        ATTACH(predict, mentat__predict__init);
        b->faction[0] = &pb->predict->faction;
        b->num[1] = &pb->predict->turn;
        return;
    case ENGINE_ACTION_TRAITOR_PICK:       /* leader */
        ATTACH(traitor_pick, mentat__traitor_pick__init);
        b->num[0] = &pb->traitor_pick->leader;
        return;
    case ENGINE_ACTION_FREMEN_PLACE:       /* forces, then Fedaykin, in three places */
        ATTACH(fremen_place, mentat__fremen_place__init);
        b->num[0] = &pb->fremen_place->sietch_tabr;
        b->num[1] = &pb->fremen_place->false_wall_south;
        b->num[2] = &pb->fremen_place->false_wall_west;
        b->num[3] = &pb->fremen_place->fedaykin_sietch_tabr;
        b->num[4] = &pb->fremen_place->fedaykin_false_wall_south;
        b->num[5] = &pb->fremen_place->fedaykin_false_wall_west;
        return;
    case ENGINE_ACTION_BG_PLACE:           /* location */
        ATTACH(bg_place, mentat__bg_place__init);
        b->num[0] = &pb->bg_place->location;
        return;
    case ENGINE_ACTION_STORM_DIAL:         /* value */
        ATTACH(storm_dial, mentat__storm_dial__init);
        b->num[0] = &pb->storm_dial->value;
        return;
    case ENGINE_ACTION_ALLIANCE_PROPOSE:   /* faction */
        ATTACH(alliance_propose, mentat__alliance_propose__init);
        b->faction[0] = &pb->alliance_propose->faction;
        return;
    case ENGINE_ACTION_ALLIANCE_ACCEPT:    /* faction that proposed */
        ATTACH(alliance_accept, mentat__alliance_accept__init);
        b->faction[0] = &pb->alliance_accept->faction;
        return;
    case ENGINE_ACTION_ALLIANCE_REFUSE:    /* faction that proposed */
        ATTACH(alliance_refuse, mentat__alliance_refuse__init);
        b->faction[0] = &pb->alliance_refuse->faction;
        return;
    case ENGINE_ACTION_ALLIANCE_BREAK:
        ATTACH(alliance_break, mentat__alliance_break__init);
        return;
    case ENGINE_ACTION_NEXUS_DONE:
        ATTACH(nexus_done, mentat__nexus_done__init);
        return;
    case ENGINE_ACTION_WORM_RIDE:          /* location, forces, elite */
        ATTACH(worm_ride, mentat__worm_ride__init);
        b->num[0] = &pb->worm_ride->location;
        b->num[1] = &pb->worm_ride->forces;
        b->num[2] = &pb->worm_ride->elite;
        return;
    case ENGINE_ACTION_WORM_RIDE_PASS:
        ATTACH(worm_ride_pass, mentat__worm_ride_pass__init);
        return;
    case ENGINE_ACTION_CHARITY_CLAIM:
        ATTACH(charity_claim, mentat__charity_claim__init);
        return;
    case ENGINE_ACTION_CHARITY_DECLINE:
        ATTACH(charity_decline, mentat__charity_decline__init);
        return;
    case ENGINE_ACTION_ALLY_SUPPORT:       /* spice */
        ATTACH(ally_support, mentat__ally_support__init);
        b->num[0] = &pb->ally_support->spice;
        return;
    case ENGINE_ACTION_BID:                /* spice, karama */
        ATTACH(bid, mentat__bid__init);
        b->num[0] = &pb->bid->spice;
        b->num[1] = &pb->bid->karama;
        return;
    case ENGINE_ACTION_BID_PASS:
        ATTACH(bid_pass, mentat__bid_pass__init);
        return;
    case ENGINE_ACTION_KARAMA_TAKE:
        ATTACH(karama_take, mentat__karama_take__init);
        return;
    case ENGINE_ACTION_EMPEROR_REVIVAL:    /* forces */
        ATTACH(emperor_revival, mentat__emperor_revival__init);
        b->num[0] = &pb->emperor_revival->forces;
        return;
    case ENGINE_ACTION_REVIVE:             /* forces, elite, leader (-1 none) */
        ATTACH(revive, mentat__revive__init);
        b->num[0] = &pb->revive->forces;
        b->num[1] = &pb->revive->elite;
        b->snum[2] = &pb->revive->leader;
        return;
    case ENGINE_ACTION_GHOLA:              /* forces, leader (-1 none) */
        ATTACH(ghola, mentat__ghola__init);
        b->num[0] = &pb->ghola->forces;
        b->snum[1] = &pb->ghola->leader;
        return;
    case ENGINE_ACTION_SHIP:               /* location, forces, elite, karama */
        ATTACH(ship, mentat__ship__init);
        b->num[0] = &pb->ship->location;
        b->num[1] = &pb->ship->forces;
        b->num[2] = &pb->ship->elite;
        b->num[3] = &pb->ship->karama;
        return;
    case ENGINE_ACTION_FREMEN_SEND:        /* location, forces, elite */
        ATTACH(fremen_send, mentat__fremen_send__init);
        b->num[0] = &pb->fremen_send->location;
        b->num[1] = &pb->fremen_send->forces;
        b->num[2] = &pb->fremen_send->elite;
        return;
    case ENGINE_ACTION_CROSS_SHIP:         /* from, to (locations), forces, elite */
        ATTACH(cross_ship, mentat__cross_ship__init);
        b->num[0] = &pb->cross_ship->from;
        b->num[1] = &pb->cross_ship->to;
        b->num[2] = &pb->cross_ship->forces;
        b->num[3] = &pb->cross_ship->elite;
        return;
    case ENGINE_ACTION_SHIP_BACK:          /* from (location), forces, elite */
        ATTACH(ship_back, mentat__ship_back__init);
        b->num[0] = &pb->ship_back->from;
        b->num[1] = &pb->ship_back->forces;
        b->num[2] = &pb->ship_back->elite;
        return;
    case ENGINE_ACTION_SHIP_PASS:
        ATTACH(ship_pass, mentat__ship_pass__init);
        return;
    case ENGINE_ACTION_BG_SEND:            /* send (1) or not (0) */
        ATTACH(bg_send, mentat__bg_send__init);
        b->num[0] = &pb->bg_send->send;
        b->num[1] = &pb->bg_send->to;           /* optional: location, 0 absent */
        b->has[1] = &pb->bg_send->has_to;
        return;
    case ENGINE_ACTION_MOVE:               /* from (territory), to (location), forces, elite */
        ATTACH(move, mentat__move__init);
        b->num[0] = &pb->move->from;
        b->num[1] = &pb->move->to;
        b->num[2] = &pb->move->forces;
        b->num[3] = &pb->move->elite;
        b->num[4] = &pb->move->source;          /* optional: location, 0 absent */
        b->has[4] = &pb->move->has_source;
        b->num[5] = &pb->move->fighters;        /* optional: 1 take up arms, 0 absent */
        b->has[5] = &pb->move->has_fighters;
        return;
    case ENGINE_ACTION_HAJR_MOVE:          /* as MOVE */
        ATTACH(hajr_move, mentat__hajr_move__init);
        b->num[0] = &pb->hajr_move->from;
        b->num[1] = &pb->hajr_move->to;
        b->num[2] = &pb->hajr_move->forces;
        b->num[3] = &pb->hajr_move->elite;
        b->num[4] = &pb->hajr_move->source;
        b->has[4] = &pb->hajr_move->has_source;
        b->num[5] = &pb->hajr_move->fighters;
        b->has[5] = &pb->hajr_move->has_fighters;
        return;
    case ENGINE_ACTION_MOVE_PASS:
        ATTACH(move_pass, mentat__move_pass__init);
        return;
    case ENGINE_ACTION_BATTLE_CHOOSE:  /* territory, opponent */
        ATTACH(battle_choose, mentat__battle_choose__init);
        b->num[0] = &pb->battle_choose->territory;
        b->faction[1] = &pb->battle_choose->opponent;
        return;
    case ENGINE_ACTION_PRESCIENCE:  /* element */
        ATTACH(prescience, mentat__prescience__init);
        b->num[0] = &pb->prescience->element;
        return;
    case ENGINE_ACTION_PRESCIENCE_PASS:
        ATTACH(prescience_pass, mentat__prescience_pass__init);
        return;
    case ENGINE_ACTION_PRESCIENCE_ANSWER:  /* value */
        ATTACH(prescience_answer, mentat__prescience_answer__init);
        b->snum[0] = &pb->prescience_answer->value;
        b->num[1] = &pb->prescience_answer->support; /* optional: Advanced dial, 0 absent */
        b->has[1] = &pb->prescience_answer->has_support;
        return;
    case ENGINE_ACTION_VOICE:  /* must, class */
        ATTACH(voice, mentat__voice__init);
        b->num[0] = &pb->voice->must;
        b->num[1] = &pb->voice->class_;   /* protoc-c renames "class" */
        return;
    case ENGINE_ACTION_VOICE_PASS:
        ATTACH(voice_pass, mentat__voice_pass__init);
        return;
    case ENGINE_ACTION_KARAMA_CANCEL:      /* [advantage]: absent in rules version 1 */
        ATTACH(karama_cancel, mentat__karama_cancel__init);
        b->num[0] = &pb->karama_cancel->advantage;
        b->has[0] = &pb->karama_cancel->has_advantage;
        return;
    case ENGINE_ACTION_KARAMA_ALLOW:
        ATTACH(karama_allow, mentat__karama_allow__init);
        return;
    case ENGINE_ACTION_BATTLE_PLAN:  /* leader, cheap_hero, weapon, defense, dial, half,
                                        elite, elite_half */
        ATTACH(battle_plan, mentat__battle_plan__init);
        b->snum[0] = &pb->battle_plan->leader;
        b->snum[1] = &pb->battle_plan->cheap_hero;
        b->snum[2] = &pb->battle_plan->weapon;
        b->snum[3] = &pb->battle_plan->defense;
        b->num[4] = &pb->battle_plan->dial;
        b->num[5] = &pb->battle_plan->half;      /* half, elite, elite_half: Advanced */
        b->has[5] = &pb->battle_plan->has_half;
        b->num[6] = &pb->battle_plan->elite;
        b->has[6] = &pb->battle_plan->has_elite;
        b->num[7] = &pb->battle_plan->elite_half;
        b->has[7] = &pb->battle_plan->has_elite_half;
        return;
    case ENGINE_ACTION_TRAITOR_CALL:  /* call */
        ATTACH(traitor_call, mentat__traitor_call__init);
        b->num[0] = &pb->traitor_call->call;
        return;
    case ENGINE_ACTION_KEEP_CARDS:  /* weapon, defense */
        ATTACH(keep_cards, mentat__keep_cards__init);
        b->num[0] = &pb->keep_cards->weapon;
        b->num[1] = &pb->keep_cards->defense;
        return;
    case ENGINE_ACTION_WEATHER_CONTROL:  /* sectors */
        ATTACH(weather_control, mentat__weather_control__init);
        b->num[0] = &pb->weather_control->sectors;
        return;
    case ENGINE_ACTION_FAMILY_ATOMICS:
        ATTACH(family_atomics, mentat__family_atomics__init);
        return;
    case ENGINE_ACTION_STORM_CARDS_PASS:
        ATTACH(storm_cards_pass, mentat__storm_cards_pass__init);
        return;
    case ENGINE_ACTION_TRUTHTRANCE:  /* target */
        ATTACH(truthtrance, mentat__truthtrance__init);
        b->faction[0] = &pb->truthtrance->target;
        return;
    case ENGINE_ACTION_TRUTHTRANCE_ANSWER:  /* yes */
        ATTACH(truthtrance_answer, mentat__truthtrance_answer__init);
        b->num[0] = &pb->truthtrance_answer->yes;
        return;
    case ENGINE_ACTION_SHIP_KARAMA_FROM:  /* location, forces, elite, payer */
        ATTACH(ship_karama_from, mentat__ship_karama_from__init);
        b->num[0] = &pb->ship_karama_from->location;
        b->num[1] = &pb->ship_karama_from->forces;
        b->num[2] = &pb->ship_karama_from->elite;
        b->faction[3] = &pb->ship_karama_from->payer;
        return;
    case ENGINE_ACTION_SHIP_KARAMA_ANSWER:  /* pay */
        ATTACH(ship_karama_answer, mentat__ship_karama_answer__init);
        b->num[0] = &pb->ship_karama_answer->pay;
        return;
    case ENGINE_ACTION_FREMEN_PROTECT_ALLY: /* protect */
        ATTACH(fremen_protect_ally, mentat__fremen_protect_ally__init);
        b->num[0] = &pb->fremen_protect_ally->protect;
        return;
    case ENGINE_ACTION_FREMEN_ALLY_REVIVAL: /* give */
        ATTACH(fremen_ally_revival, mentat__fremen_ally_revival__init);
        b->num[0] = &pb->fremen_ally_revival->give;
        return;
    case ENGINE_ACTION_KARAMA_POLICY:      /* ask_1_10, ask_11_20, own_1_10, own_11_20,
                                              ask_21_31, own_21_31 */
        ATTACH(karama_policy, mentat__karama_policy__init);
        b->num[0] = &pb->karama_policy->ask_1_10;
        b->num[1] = &pb->karama_policy->ask_11_20;
        b->num[2] = &pb->karama_policy->own_1_10;
        b->num[3] = &pb->karama_policy->own_11_20;
        b->num[4] = &pb->karama_policy->ask_21_31; /* rules version 7 on */
        b->has[4] = &pb->karama_policy->has_ask_21_31;
        b->num[5] = &pb->karama_policy->own_21_31;
        b->has[5] = &pb->karama_policy->has_own_21_31;
        return;
    case ENGINE_ACTION_NEXUS_DRAW:         /* draw, policy */
        ATTACH(nexus_draw, mentat__nexus_draw__init);
        b->num[0] = &pb->nexus_draw->draw;
        b->num[1] = &pb->nexus_draw->policy;
        return;
    case ENGINE_ACTION_POWER:              /* power, arg1..arg7 (its row's form) */
        ATTACH(power, mentat__power__init);
        b->num[0] = &pb->power->power;
        BIND_GENERIC_ARGS(b, pb->power);
        return;
    case ENGINE_ACTION_ANSWER:             /* window, arg1..arg7 (its row's answer form) */
        ATTACH(answer, mentat__answer__init);
        b->num[0] = &pb->answer->window;
        BIND_GENERIC_ARGS(b, pb->answer);
        return;
    }
}

#undef ATTACH
#undef BIND_GENERIC_ARGS

/* (4): what must hold between a binding, its variant and the action table
 * row; a failure is a disagreement between mentat.proto and engine/action.c. */
static void binding_check(const action_binding *b, const engine_action_spec *spec,
                          unsigned kind)
{
    const ProtobufCMessageDescriptor *vd = b->variant->descriptor;
    (void)spec;
    (void)kind;
    (void)vd;
    assert(strcmp(protobuf_c_message_descriptor_get_field(&mentat__action__descriptor,
                                                          kind_to_wire(kind))->name,
                  spec->name) == 0);
    assert(vd->n_fields == spec->n_args);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++) {
        assert((b->num[i] != NULL) + (b->snum[i] != NULL) + (b->faction[i] != NULL)
               == (i < spec->n_args));
        assert((b->faction[i] != NULL) == (i < spec->n_args
                                           && spec->arg_type[i] == ENGINE_ARG_FACTION));
        /* a required argument's field number is its place; an optional
         * one's comes from an engineer's range (it follows them all) */
        int is_optional = i >= (unsigned)(spec->n_args - spec->n_optional) && i < spec->n_args;
        assert((b->has[i] != NULL) == is_optional);
        (void)is_optional;
        assert(i >= spec->n_args ||
               strcmp(vd->fields[i].id == i + 1 || is_optional ? vd->fields[i].name : "",
                      spec->arg_name[i]) == 0);
    }
}

/* The values argument i may take on the wire: its type's range, and no
 * negative value in a uint32 field. */
static void arg_wire_range(int32_t *lo, int32_t *hi, const action_binding *b,
                           const engine_action_spec *spec, unsigned i)
{
    type_range(lo, hi, spec->arg_type[i]);
    if (b->num[i] != NULL && *lo < 0)
        *lo = 0;
}

void codec__arg_range(int32_t *lo_out, int32_t *hi_out, unsigned kind, unsigned i)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    Mentat__Action pb;
    wire_variant store;
    action_binding b;

    assert(spec != NULL && i < spec->n_args);
    mentat__action__init(&pb);
    action_bind(&b, &pb, &store, kind);
    arg_wire_range(lo_out, hi_out, &b, spec, i);
}

int codec__action_check(const engine_action *act, char *err, const char *path)
{
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    Mentat__Action pb;
    wire_variant store;
    action_binding b;

    if (spec == NULL)
        return codec__fail(err, "%s: unknown action kind %u", path, (unsigned)act->kind);
    mentat__action__init(&pb);
    action_bind(&b, &pb, &store, act->kind);
    if (b.variant == NULL)
        return codec__fail(err, "%s: action kind %s has no wire form", path, spec->name);
    binding_check(&b, spec, act->kind);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++) {
        int32_t lo, hi;
        if (i >= spec->n_args) {
            if (act->arg[i] != 0)
                return codec__fail(err, "%s: %s takes %u arguments, argument %u is %d",
                                   path, spec->name, (unsigned)spec->n_args, i,
                                   (int)act->arg[i]);
            continue;
        }
        arg_wire_range(&lo, &hi, &b, spec, i);
        if (act->arg[i] < lo || act->arg[i] > hi)
            return codec__fail(err, "%s.%s: value %d out of range %d..%d", path,
                               spec->arg_name[i], (int)act->arg[i], (int)lo, (int)hi);
    }
    return SCHEMA_OK;
}

static int action_to_wire(Mentat__Action *pb, wire_variant *store, const engine_action *act)
{
    const engine_action_spec *spec;
    action_binding b;

    if (codec__action_check(act, NULL, "Action") != 0)
        return SCHEMA_ERROR;
    spec = engine_action_spec_of(act->kind);
    mentat__action__init(pb);
    pb->kind_case = (Mentat__Action__KindCase)kind_to_wire(act->kind);
    action_bind(&b, pb, store, act->kind);
    for (unsigned i = 0; i < spec->n_args; i++) {
        if (b.faction[i] != NULL)
            *b.faction[i] = (Mentat__Faction)(act->arg[i] + 1);
        else if (b.snum[i] != NULL)
            *b.snum[i] = act->arg[i];
        else
            *b.num[i] = (uint32_t)act->arg[i];
        if (b.has[i] != NULL)
            *b.has[i] = act->arg[i] != 0; /* absent: 0, not on the wire */
    }
    return SCHEMA_OK;
}

/* `path` names the Action message ("Event.action"). out->seat is left 0. */
static int action_from_wire(engine_action *out, Mentat__Action *pb, const char *path, char *err)
{
    const engine_action_spec *spec;
    const ProtobufCMessageDescriptor *vd;
    action_binding b;
    char vpath[PATH_MAX_CHARS];
    int rc;

    memset(out, 0, sizeof *out);
    rc = no_unknown_fields(&pb->base, path, err);
    if (rc != 0)
        return rc;
    if (pb->kind_case == MENTAT__ACTION__KIND__NOT_SET)
        return codec__fail(err, "%s: no action kind set", path);
    unsigned kind = wire_to_kind((unsigned)pb->kind_case);
    spec = engine_action_spec_of(kind);
    action_bind(&b, pb, NULL, kind);
    if (spec == NULL || b.variant == NULL)
        return codec__fail(err, "%s: unknown action kind %d", path, (int)pb->kind_case);
    binding_check(&b, spec, kind);
    vd = b.variant->descriptor;
    path_join(vpath, path, spec->name);
    rc = no_unknown_fields(b.variant, vpath, err);
    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < spec->n_args; i++) {
        char fpath[PATH_MAX_CHARS];
        int32_t lo, hi;
        int64_t v;
        path_join(fpath, vpath, vd->fields[i].name);
        if (b.faction[i] != NULL) {
            rc = enum_from_wire((int)*b.faction[i], ENGINE_FACTION_COUNT, fpath, err);
            if (rc != 0)
                return rc;
            v = (int64_t)*b.faction[i] - 1;
        } else if (b.snum[i] != NULL)
            v = *b.snum[i];
        else
            v = *b.num[i];
        if (b.has[i] != NULL && *b.has[i] && v == 0)
            return codec__fail(err, "%s: an optional argument given must not be 0 (absent)",
                               fpath);
        arg_wire_range(&lo, &hi, &b, spec, i);
        if (v < lo || v > hi)
            return codec__fail(err, "%s: value %lld out of range %d..%d", fpath,
                               (long long)v, (int)lo, (int)hi);
        out->arg[i] = (int16_t)v;
    }
    out->kind = (uint8_t)kind;
    return SCHEMA_OK;
}

int codec_action_encode(uint8_t *out, size_t cap, size_t *len_out, const engine_action *act)
{
    Mentat__Action pb;
    wire_variant store;
    int rc;

    *len_out = 0;
    rc = action_to_wire(&pb, &store, act);
    if (rc != 0)
        return rc;
    return pack(out, cap, len_out, &pb.base);
}

static int action_msg_from_wire(void *out, ProtobufCMessage *msg, const uint8_t *in,
                                size_t len, char *err)
{
    (void)in;
    (void)len;
    return action_from_wire(out, (Mentat__Action *)msg, "Action", err);
}

int codec_action_decode(engine_action *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__action__descriptor, action_msg_from_wire,
                  in, len, err);
}

/* ============================================================= genesis */

int codec_genesis_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_genesis *g)
{
    Mentat__Genesis m = MENTAT__GENESIS__INIT;
    Mentat__Faction seats[ENGINE_MAX_SEATS];
    Mentat__Module modules[SCHEMA_MAX_MODULES];
    char room[SCHEMA_ROOM_CHARS + 1];
    const engine_config *c = &g->config;
    uint32_t used = 0;

    *len_out = 0;
    if (room_to_wire(room, g->room) != 0)
        return SCHEMA_ERROR;
    if (c->n_seats < ENGINE_MIN_SEATS || c->n_seats > ENGINE_MAX_SEATS)
        return SCHEMA_ERROR;
    for (unsigned i = 0; i < c->n_seats; i++) {
        if (c->faction[i] >= ENGINE_FACTION_COUNT || (used >> c->faction[i] & 1u) != 0)
            return SCHEMA_ERROR;
        used |= 1u << c->faction[i];
        seats[i] = (Mentat__Faction)(c->faction[i] + 1);
    }
    if (c->is_advanced > 1 || c->is_constructed > 1)
        return SCHEMA_ERROR;
    if (c->turn_limit < 1 || c->turn_limit > ENGINE_MAX_TURN_LIMIT)
        return SCHEMA_ERROR;
    if ((c->modules >> MODULE_LAST) != 0)
        return SCHEMA_ERROR;
    if (g->position_len != 0 && !c->is_constructed)
        return SCHEMA_ERROR;
    m.format_version = g->format_version;
    m.room = room;
    m.rules = c->is_advanced ? MENTAT__RULES__ADVANCED : MENTAT__RULES__BASIC;
    m.rules_version = c->rules_version;
    m.n_seats = c->n_seats;
    m.seats = seats;
    for (int mod = 1; mod <= MODULE_LAST; mod++)
        if ((c->modules >> (mod - 1) & 1u) != 0)
            modules[m.n_modules++] = (Mentat__Module)mod;
    m.modules = modules;
    m.turn_limit = c->turn_limit;
    m.hash_algorithm = MENTAT__HASH_ALGORITHM__BLAKE2B_256;
    m.signature_algorithm = MENTAT__SIGNATURE_ALGORITHM__ED25519;
    m.seed_commitment = bin(g->seed_commitment, SCHEMA_HASH_BYTES);
    m.sealed_seed = bin(g->sealed_seed, SCHEMA_SEALED_SEED_BYTES);
    m.audit_key_id = g->audit_key_id;
    m.key_id = g->key_id;
    m.created_at = g->created_at;
    m.has_constructed = c->is_constructed;
    m.constructed = c->is_constructed;
    m.has_position = g->position_len != 0;
    m.position = bin(g->position, g->position_len);
    m.signature = bin(g->signature, SCHEMA_SIG_BYTES);
    char fork_room[SCHEMA_ROOM_CHARS + 1];
    if (g->is_fork) {
        if (!c->is_constructed || g->position_len == 0 || room_to_wire(fork_room, g->fork_room) != 0)
            return SCHEMA_ERROR;
        m.fork_of_room = fork_room;
        m.has_fork_of_version = 1;
        m.fork_of_version = g->fork_version;
        m.has_fork_of_hash = 1;
        m.fork_of_hash = bin(g->fork_hash, SCHEMA_HASH_BYTES);
        m.has_position_sealed = g->is_position_sealed;
        m.position_sealed = g->is_position_sealed != 0;
    } else if (g->is_position_sealed) {
        return SCHEMA_ERROR;
    }
    ProtobufCBinaryData seat_keys[ENGINE_MAX_SEATS];
    if (g->seat_bound != 0) {
        if (((unsigned)g->seat_bound >> c->n_seats) != 0)
            return SCHEMA_ERROR;
        for (unsigned i = 0; i < c->n_seats; i++)
            seat_keys[i] = bin(g->seat_key[i], ((unsigned)g->seat_bound >> i & 1u) ? SCHEMA_KEY_BYTES : 0);
        m.n_seat_keys = c->n_seats;
        m.seat_keys = seat_keys;
    }
    return pack(out, cap, len_out, &m.base);
}

/* Genesis.seat_keys: none, or one per seat (32 bytes bound, empty not),
 * at least one bound and no all-zero key. */
static int seat_keys_from_wire(codec_genesis *g, const Mentat__Genesis *m, char *err)
{
    static const uint8_t zero[SCHEMA_KEY_BYTES];
    if (m->n_seat_keys == 0)
        return SCHEMA_OK;
    if (m->n_seat_keys != g->config.n_seats)
        return codec__fail(err, "Genesis.seat_keys: %zu keys for %u seats", m->n_seat_keys,
                           (unsigned)g->config.n_seats);
    for (size_t i = 0; i < m->n_seat_keys; i++) {
        const ProtobufCBinaryData *b = &m->seat_keys[i];
        if (b->len == 0)
            continue;
        if (b->len != SCHEMA_KEY_BYTES || memcmp(b->data, zero, SCHEMA_KEY_BYTES) == 0)
            return codec__fail(err, "Genesis.seat_keys[%zu]: not a public key", i);
        memcpy(g->seat_key[i], b->data, SCHEMA_KEY_BYTES);
        g->seat_bound |= (uint16_t)(1u << i);
    }
    if (g->seat_bound == 0)
        return codec__fail(err, "Genesis.seat_keys: no seat bound");
    return SCHEMA_OK;
}

static int genesis_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in, size_t len,
                             char *err)
{
    codec_genesis *g = dst;
    Mentat__Genesis *m = (Mentat__Genesis *)msg;
    engine_config *c = &g->config;
    char path[PATH_MAX_CHARS];
    uint32_t used = 0;
    int rc;

    g->format_version = m->format_version;
    if ((rc = room_from_wire(g->room, m->room, "Genesis.room", err)) != 0)
        return rc;
    if ((rc = enum_from_wire((int)m->rules, MENTAT__RULES__ADVANCED, "Genesis.rules", err)) != 0)
        return rc;
    c->is_advanced = m->rules == MENTAT__RULES__ADVANCED;
    if (m->rules_version > UINT16_MAX)
        return codec__fail(err, "Genesis.rules_version: %u out of range 0..%u",
                           (unsigned)m->rules_version, (unsigned)UINT16_MAX);
    c->rules_version = (uint16_t)m->rules_version;

    if (m->n_seats < ENGINE_MIN_SEATS || m->n_seats > ENGINE_MAX_SEATS)
        return codec__fail(err, "Genesis.seats: %zu seats, expected %d..%d", m->n_seats,
                           ENGINE_MIN_SEATS, ENGINE_MAX_SEATS);
    memset(c->faction, ENGINE_FACTION_NONE, sizeof c->faction);
    for (size_t i = 0; i < m->n_seats; i++) {
        unsigned f;
        snprintf(path, sizeof path, "Genesis.seats[%zu]", i);
        if ((rc = enum_from_wire((int)m->seats[i], ENGINE_FACTION_COUNT, path, err)) != 0)
            return rc;
        f = (unsigned)m->seats[i] - 1;
        if ((used >> f & 1u) != 0)
            return codec__fail(err, "%s: faction %s plays two seats", path,
                               engine_faction_name(f) != NULL ? engine_faction_name(f) : "?");
        used |= 1u << f;
        c->faction[i] = (uint8_t)f;
    }
    c->n_seats = (uint8_t)m->n_seats;

    if (m->n_modules > SCHEMA_MAX_MODULES)
        return codec__fail(err, "Genesis.modules: %zu modules, at most %d", m->n_modules,
                           SCHEMA_MAX_MODULES);
    for (size_t i = 0; i < m->n_modules; i++) {
        uint32_t bit;
        snprintf(path, sizeof path, "Genesis.modules[%zu]", i);
        if ((rc = enum_from_wire((int)m->modules[i], MODULE_LAST, path, err)) != 0)
            return rc;
        bit = 1u << ((unsigned)m->modules[i] - 1);
        if ((c->modules & bit) != 0)
            return codec__fail(err, "%s: module %d listed twice", path, (int)m->modules[i]);
        c->modules |= bit;
    }

    if (m->turn_limit < 1 || m->turn_limit > ENGINE_MAX_TURN_LIMIT)
        return codec__fail(err, "Genesis.turn_limit: value %u out of range 1..%d",
                           m->turn_limit, ENGINE_MAX_TURN_LIMIT);
    c->turn_limit = (uint8_t)m->turn_limit;
    if ((rc = enum_from_wire((int)m->hash_algorithm, MENTAT__HASH_ALGORITHM__BLAKE2B_256,
                             "Genesis.hash_algorithm", err)) != 0)
        return rc;
    if ((rc = enum_from_wire((int)m->signature_algorithm, MENTAT__SIGNATURE_ALGORITHM__ED25519,
                             "Genesis.signature_algorithm", err)) != 0)
        return rc;
    if ((rc = bytes_from_wire(g->seed_commitment, SCHEMA_HASH_BYTES, &m->seed_commitment,
                              "Genesis.seed_commitment", err)) != 0)
        return rc;
    if ((rc = bytes_from_wire(g->sealed_seed, SCHEMA_SEALED_SEED_BYTES, &m->sealed_seed,
                              "Genesis.sealed_seed", err)) != 0)
        return rc;
    g->audit_key_id = m->audit_key_id;
    g->key_id = m->key_id;
    g->created_at = m->created_at;
    c->is_constructed = m->has_constructed && m->constructed;
    if (m->has_position && !c->is_constructed)
        return codec__fail(err, "Genesis.position: present in a genuine room");
    if (m->has_position && m->position.len != 0) {
        g->position = wire_find(&g->position_len, in, len, 16);  /* Genesis.position */
        if (g->position == NULL || g->position_len != m->position.len)
            return codec__fail(err, "Genesis.position: malformed");
    }
    int n_fork = (m->fork_of_room != NULL) + m->has_fork_of_version + m->has_fork_of_hash;
    if (n_fork != 0 && n_fork != 3)
        return codec__fail(err, "Genesis.fork_of_room: a fork names its room, version and hash");
    if (n_fork == 3) {
        if (!c->is_constructed || g->position_len == 0)
            return codec__fail(err, "Genesis.fork_of_room: a fork without its position");
        if ((rc = room_from_wire(g->fork_room, m->fork_of_room, "Genesis.fork_of_room", err)) != 0)
            return rc;
        if ((rc = bytes_from_wire(g->fork_hash, SCHEMA_HASH_BYTES, &m->fork_of_hash,
                                  "Genesis.fork_of_hash", err)) != 0)
            return rc;
        g->is_fork = 1;
        g->fork_version = m->fork_of_version;
        g->is_position_sealed = m->has_position_sealed && m->position_sealed;
    } else if (m->has_position_sealed) {
        return codec__fail(err, "Genesis.position_sealed: not a fork");
    }
    if ((rc = seat_keys_from_wire(g, m, err)) != 0)
        return rc;
    return bytes_from_wire(g->signature, SCHEMA_SIG_BYTES, &m->signature,
                           "Genesis.signature", err);
}

int codec_genesis_decode(codec_genesis *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__genesis__descriptor, genesis_from_wire,
                  in, len, err);
}

/* =============================================================== event */

int codec_event_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_event *ev,
                       int with_prev_hash)
{
    Mentat__Event m = MENTAT__EVENT__INIT;
    Mentat__Action action;
    wire_variant store;

    *len_out = 0;
    if (ev->version < 1 || ev->action.seat != ev->seat)
        return SCHEMA_ERROR;
    if (seat_to_wire(&m.seat, ev->seat) != 0 || action_to_wire(&action, &store, &ev->action) != 0)
        return SCHEMA_ERROR;
    m.version = ev->version;
    m.has_prev_hash = with_prev_hash && ev->has_prev_hash;
    m.prev_hash = bin(ev->prev_hash, SCHEMA_HASH_BYTES);
    m.action = &action;
    m.committed_at = ev->committed_at;
    m.state_digest = bin(ev->state_digest, SCHEMA_HASH_BYTES);
    m.has_key_id = ev->has_signature;
    m.key_id = ev->has_signature ? ev->key_id : 0;
    m.has_signature = ev->has_signature;
    m.signature = bin(ev->signature, ev->has_signature ? SCHEMA_SIG_BYTES : 0);
    m.has_seat_signature = ev->has_seat_signature;
    m.seat_signature = bin(ev->seat_signature, ev->has_seat_signature ? SCHEMA_SIG_BYTES : 0);
    if (ev->has_bind_key && (!ev->has_seat_signature || ev->seat == ENGINE_SEAT_ENGINE))
        return SCHEMA_ERROR;
    m.has_bind_key = ev->has_bind_key;
    m.bind_key = bin(ev->bind_key, ev->has_bind_key ? SCHEMA_KEY_BYTES : 0);
    if (ev->sealed_len != 0) {
        if (ev->sealed_len < SCHEMA_SEALED_EVENT_MIN || ev->sealed_len > SCHEMA_SEALED_EVENT_MAX ||
            ev->has_signature)
            return SCHEMA_ERROR;
        m.has_sealed_action = 1;
        m.sealed_action = bin(ev->sealed_action, ev->sealed_len);
    }
    return pack(out, cap, len_out, &m.base);
}

static int event_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in, size_t len,
                           char *err)
{
    codec_event *ev = dst;
    Mentat__Event *m = (Mentat__Event *)msg;
    int rc;

    (void)in;
    (void)len;
    if (m->version < 1)
        return codec__fail(err, "Event.version: 0, versions start at 1");
    ev->version = m->version;
    if (m->has_prev_hash) {
        if ((rc = bytes_from_wire(ev->prev_hash, SCHEMA_HASH_BYTES, &m->prev_hash,
                                  "Event.prev_hash", err)) != 0)
            return rc;
        ev->has_prev_hash = 1;
    }
    if ((rc = seat_from_wire(&ev->seat, m->seat, "Event.seat", err)) != 0)
        return rc;
    if ((rc = action_from_wire(&ev->action, m->action, "Event.action", err)) != 0)
        return rc;
    ev->action.seat = ev->seat;
    ev->committed_at = m->committed_at;
    if ((rc = bytes_from_wire(ev->state_digest, SCHEMA_HASH_BYTES, &m->state_digest,
                              "Event.state_digest", err)) != 0)
        return rc;
    if (m->has_seat_signature) {
        if ((rc = bytes_from_wire(ev->seat_signature, SCHEMA_SIG_BYTES, &m->seat_signature,
                                  "Event.seat_signature", err)) != 0)
            return rc;
        ev->has_seat_signature = 1;
    }
    if (m->has_bind_key) {
        if (!m->has_seat_signature || ev->seat == ENGINE_SEAT_ENGINE)
            return codec__fail(err, "Event.bind_key: a binding without a seat's signature");
        if ((rc = bytes_from_wire(ev->bind_key, SCHEMA_KEY_BYTES, &m->bind_key, "Event.bind_key",
                                  err)) != 0)
            return rc;
        ev->has_bind_key = 1;
    }
    if (m->has_sealed_action) {
        if (m->sealed_action.len < SCHEMA_SEALED_EVENT_MIN ||
            m->sealed_action.len > SCHEMA_SEALED_EVENT_MAX)
            return codec__fail(err, "Event.sealed_action: %zu bytes, not %d..%d",
                               m->sealed_action.len, SCHEMA_SEALED_EVENT_MIN,
                               SCHEMA_SEALED_EVENT_MAX);
        if (m->has_signature)
            return codec__fail(err, "Event: a sealed action in an event of format 1");
        memcpy(ev->sealed_action, m->sealed_action.data, m->sealed_action.len);
        ev->sealed_len = m->sealed_action.len;
    }
    /* Format 1 has both, format 2 neither (docs/FORMAT.md "Event"). */
    if (m->has_key_id != m->has_signature)
        return codec__fail(err, "Event: key_id and signature go together");
    if (!m->has_signature)
        return SCHEMA_OK;
    ev->has_signature = 1;
    ev->key_id = m->key_id;
    return bytes_from_wire(ev->signature, SCHEMA_SIG_BYTES, &m->signature,
                           "Event.signature", err);
}

int codec_event_decode(codec_event *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__event__descriptor, event_from_wire, in, len, err);
}

/* =========================================================== rejection */

#define DETAIL_ARG_NONE (-1)

int codec_rejection_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_rejection *r)
{
    Mentat__Rejection m = MENTAT__REJECTION__INIT;
    Mentat__Action action;
    wire_variant store;
    char room[SCHEMA_ROOM_CHARS + 1];

    *len_out = 0;
    if (room_to_wire(room, r->room) != 0 || seat_to_wire(&m.seat, r->seat) != 0
        || r->action.seat != r->seat || action_to_wire(&action, &store, &r->action) != 0)
        return SCHEMA_ERROR;
    if (r->reason == ENGINE_ACCEPTED || r->reason >= ENGINE_VERDICT_COUNT)
        return SCHEMA_ERROR;
    if (r->detail_arg < DETAIL_ARG_NONE || r->detail_arg >= ENGINE_ACTION_MAX_ARGS)
        return SCHEMA_ERROR;
    m.room = room;
    m.expected_version = r->expected_version;
    m.action = &action;
    m.reason = r->reason;
    m.has_detail_arg = 1;
    m.detail_arg = r->detail_arg;
    m.has_detail_value = 1;
    m.detail_value = r->detail_value;
    m.at = r->at;
    if (r->sealed_len != 0) {
        if (r->sealed_len < SCHEMA_SEALED_ACTION_MIN || r->sealed_len > SCHEMA_SEALED_ACTION_MAX)
            return SCHEMA_ERROR;
        m.has_sealed_action = 1;
        m.sealed_action = bin(r->sealed_action, r->sealed_len);
    }
    return pack(out, cap, len_out, &m.base);
}

static int rejection_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in, size_t len,
                               char *err)
{
    codec_rejection *r = dst;
    Mentat__Rejection *m = (Mentat__Rejection *)msg;
    int rc;

    (void)in;
    (void)len;
    if ((rc = room_from_wire(r->room, m->room, "Rejection.room", err)) != 0)
        return rc;
    if ((rc = seat_from_wire(&r->seat, m->seat, "Rejection.seat", err)) != 0)
        return rc;
    r->expected_version = m->expected_version;
    if ((rc = action_from_wire(&r->action, m->action, "Rejection.action", err)) != 0)
        return rc;
    r->action.seat = r->seat;
    if (m->reason == ENGINE_ACCEPTED || m->reason >= ENGINE_VERDICT_COUNT)
        return codec__fail(err, "Rejection.reason: value %u out of range 1..%d", m->reason,
                           ENGINE_VERDICT_COUNT - 1);
    r->reason = m->reason;
    r->detail_arg = m->has_detail_arg ? m->detail_arg : DETAIL_ARG_NONE;
    if (r->detail_arg < DETAIL_ARG_NONE || r->detail_arg >= ENGINE_ACTION_MAX_ARGS)
        return codec__fail(err, "Rejection.detail_arg: value %d out of range %d..%d",
                           (int)r->detail_arg, DETAIL_ARG_NONE, ENGINE_ACTION_MAX_ARGS - 1);
    r->detail_value = m->has_detail_value ? m->detail_value : 0;
    r->at = m->at;
    if (m->has_sealed_action) {
        if (m->sealed_action.len < SCHEMA_SEALED_ACTION_MIN ||
            m->sealed_action.len > SCHEMA_SEALED_ACTION_MAX)
            return codec__fail(err, "Rejection.sealed_action: %zu bytes, not %d..%d",
                               m->sealed_action.len, SCHEMA_SEALED_ACTION_MIN,
                               SCHEMA_SEALED_ACTION_MAX);
        memcpy(r->sealed_action, m->sealed_action.data, m->sealed_action.len);
        r->sealed_len = m->sealed_action.len;
    }
    return SCHEMA_OK;
}

int codec_rejection_decode(codec_rejection *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__rejection__descriptor, rejection_from_wire,
                  in, len, err);
}

/* ============================================================= receipt */

/* m borrows from r and from room (SCHEMA_ROOM_CHARS + 1 bytes). */
static int receipt_to_wire(Mentat__Receipt *m, char *room, const codec_receipt *r)
{
    if (room_to_wire(room, r->room) != 0 || r->version < 1)
        return SCHEMA_ERROR;
    m->room = room;
    m->version = r->version;
    m->event_hash = bin(r->event_hash, SCHEMA_HASH_BYTES);
    m->key_id = r->key_id;
    m->signature = bin(r->signature, SCHEMA_SIG_BYTES);
    if (r->has_tree_head) {
        m->has_tree_root = 1;
        m->tree_root = bin(r->tree_root, SCHEMA_HASH_BYTES);
        m->has_tree_time = 1;
        m->tree_time = r->tree_time;
    }
    return 0;
}

int codec_receipt_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_receipt *r)
{
    Mentat__Receipt m = MENTAT__RECEIPT__INIT;
    char room[SCHEMA_ROOM_CHARS + 1];

    *len_out = 0;
    if (receipt_to_wire(&m, room, r) != 0)
        return SCHEMA_ERROR;
    return pack(out, cap, len_out, &m.base);
}

static int receipt_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in, size_t len,
                             char *err)
{
    codec_receipt *r = dst;
    Mentat__Receipt *m = (Mentat__Receipt *)msg;
    int rc;

    (void)in;
    (void)len;
    if ((rc = room_from_wire(r->room, m->room, "Receipt.room", err)) != 0)
        return rc;
    if (m->version < 1)
        return codec__fail(err, "Receipt.version: 0, versions start at 1");
    r->version = m->version;
    if ((rc = bytes_from_wire(r->event_hash, SCHEMA_HASH_BYTES, &m->event_hash,
                              "Receipt.event_hash", err)) != 0)
        return rc;
    r->key_id = m->key_id;
    if (m->has_tree_root != m->has_tree_time)
        return codec__fail(err, "Receipt: a tree head needs both tree_root and tree_time");
    if (m->has_tree_root) {
        r->has_tree_head = 1;
        r->tree_time = m->tree_time;
        if ((rc = bytes_from_wire(r->tree_root, SCHEMA_HASH_BYTES, &m->tree_root,
                                  "Receipt.tree_root", err)) != 0)
            return rc;
    }
    return bytes_from_wire(r->signature, SCHEMA_SIG_BYTES, &m->signature,
                           "Receipt.signature", err);
}

int codec_receipt_decode(codec_receipt *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__receipt__descriptor, receipt_from_wire,
                  in, len, err);
}

/* ========================================================== checkpoint */

int codec_checkpoint_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_checkpoint *c)
{
    Mentat__Checkpoint m = MENTAT__CHECKPOINT__INIT;
    char room[SCHEMA_ROOM_CHARS + 1];

    *len_out = 0;
    if (room_to_wire(room, c->room) != 0 || (c->state == NULL && c->state_len != 0))
        return SCHEMA_ERROR;
    m.room = room;
    m.version = c->version;
    m.state = bin(c->state, c->state_len);
    m.state_digest = bin(c->state_digest, SCHEMA_HASH_BYTES);
    return pack(out, cap, len_out, &m.base);
}

static int checkpoint_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in, size_t len,
                                char *err)
{
    codec_checkpoint *c = dst;
    Mentat__Checkpoint *m = (Mentat__Checkpoint *)msg;
    int rc;

    if ((rc = room_from_wire(c->room, m->room, "Checkpoint.room", err)) != 0)
        return rc;
    c->version = m->version;
    c->state = wire_find(&c->state_len, in, len, 3);          /* Checkpoint.state */
    if (c->state == NULL || c->state_len != m->state.len)
        return codec__fail(err, "Checkpoint.state: malformed");
    return bytes_from_wire(c->state_digest, SCHEMA_HASH_BYTES, &m->state_digest,
                           "Checkpoint.state_digest", err);
}

int codec_checkpoint_decode(codec_checkpoint *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__checkpoint__descriptor, checkpoint_from_wire,
                  in, len, err);
}

/* ================================================================= key */

static int key_to_wire(Mentat__Key *m, const codec_key *k)
{
    if (k->is_audit != 0 && k->is_audit != 1)
        return SCHEMA_ERROR;
    mentat__key__init(m);
    m->key_id = k->key_id;
    m->public_key = bin(k->public_key, SCHEMA_KEY_BYTES);
    m->created_at = k->created_at;
    m->has_retired_at = k->retired_at != 0;
    m->retired_at = k->retired_at;
    m->has_is_audit = k->is_audit;
    m->is_audit = k->is_audit;
    if (k->has_predecessor) {
        m->has_predecessor = 1;
        m->predecessor = k->predecessor;
        m->has_endorsement = 1;
        m->endorsement = bin(k->endorsement, SCHEMA_SIG_BYTES);
    }
    m->has_is_imported = k->is_imported != 0;
    m->is_imported = k->is_imported != 0;
    return SCHEMA_OK;
}

/* `path` names the Key message. */
static int key_from_wire(codec_key *k, Mentat__Key *m, const char *path, char *err)
{
    char fpath[PATH_MAX_CHARS];
    int rc = no_unknown_fields(&m->base, path, err);
    if (rc != 0)
        return rc;
    k->key_id = m->key_id;
    path_join(fpath, path, "public_key");
    if ((rc = bytes_from_wire(k->public_key, SCHEMA_KEY_BYTES, &m->public_key, fpath, err)) != 0)
        return rc;
    k->created_at = m->created_at;
    k->retired_at = m->has_retired_at ? m->retired_at : 0;
    k->is_audit = m->has_is_audit && m->is_audit;
    k->is_imported = m->has_is_imported && m->is_imported;
    if (m->has_predecessor != m->has_endorsement)
        return codec__fail(err, "%s: predecessor and endorsement go together", path);
    if (m->has_predecessor) {
        k->has_predecessor = 1;
        k->predecessor = m->predecessor;
        path_join(fpath, path, "endorsement");
        if ((rc = bytes_from_wire(k->endorsement, SCHEMA_SIG_BYTES, &m->endorsement, fpath,
                                  err)) != 0)
            return rc;
    }
    return SCHEMA_OK;
}

int codec_key_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_key *k)
{
    Mentat__Key m;
    *len_out = 0;
    if (key_to_wire(&m, k) != 0)
        return SCHEMA_ERROR;
    return pack(out, cap, len_out, &m.base);
}

static int key_msg_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in, size_t len,
                             char *err)
{
    (void)in;
    (void)len;
    return key_from_wire(dst, (Mentat__Key *)msg, "Key", err);
}

int codec_key_decode(codec_key *out, const uint8_t *in, size_t len, char *err)
{
    return decode(out, sizeof *out, &mentat__key__descriptor, key_msg_from_wire, in, len, err);
}

/* ====================================================== archive record */

int codec_archive_record_encode(uint8_t *out, size_t cap, size_t *len_out,
                                const codec_archive_record *r)
{
    Mentat__ArchiveRecord m = MENTAT__ARCHIVE_RECORD__INIT;
    Mentat__ArchiveHeader header = MENTAT__ARCHIVE_HEADER__INIT;
    Mentat__ArchiveTrailer trailer = MENTAT__ARCHIVE_TRAILER__INIT;
    Mentat__Key key;
    char room[SCHEMA_ROOM_CHARS + 1];

    Mentat__Receipt head = MENTAT__RECEIPT__INIT;
    char head_room[SCHEMA_ROOM_CHARS + 1];

    *len_out = 0;
    if (r->kind < CODEC_ARCHIVE_HEADER || r->kind > CODEC_ARCHIVE_SEALED_SEED)
        return SCHEMA_ERROR;
    switch ((codec_archive_kind)r->kind) {
    case CODEC_ARCHIVE_HEADER:
        if (room_to_wire(room, r->room) != 0)
            return SCHEMA_ERROR;
        header.format_version = r->format_version;
        header.room = room;
        header.n_events = r->n_events;
        header.created_at = r->created_at;
        m.header = &header;
        break;
    case CODEC_ARCHIVE_KEY:
        if (key_to_wire(&key, &r->key) != 0)
            return SCHEMA_ERROR;
        m.key = &key;
        break;
    case CODEC_ARCHIVE_GENESIS:
    case CODEC_ARCHIVE_EVENT:
        if (r->bytes == NULL && r->bytes_len != 0)
            return SCHEMA_ERROR;
        if (r->kind == CODEC_ARCHIVE_GENESIS)
            m.genesis = bin(r->bytes, r->bytes_len);
        else
            m.event = bin(r->bytes, r->bytes_len);
        break;
    case CODEC_ARCHIVE_REVEALED_SEED:
        m.revealed_seed = bin(r->seed, ENGINE_SEED_BYTES);
        break;
    case CODEC_ARCHIVE_TRAILER:
        trailer.n_records = r->n_records;
        trailer.digest = bin(r->digest, SCHEMA_HASH_BYTES);
        m.trailer = &trailer;
        break;
    case CODEC_ARCHIVE_HEAD:
        if (receipt_to_wire(&head, head_room, &r->head) != 0 || !r->head.has_tree_head)
            return SCHEMA_ERROR;
        m.head = &head;
        m.record_case = MENTAT__ARCHIVE_RECORD__RECORD_HEAD;
        return pack(out, cap, len_out, &m.base);
    case CODEC_ARCHIVE_ROOM_KEY:
        if (r->bytes == NULL || r->bytes_len == 0)
            return SCHEMA_ERROR;
        m.room_key = bin(r->bytes, r->bytes_len);
        m.record_case = MENTAT__ARCHIVE_RECORD__RECORD_ROOM_KEY;
        return pack(out, cap, len_out, &m.base);
    case CODEC_ARCHIVE_REVEALED_ROOM_KEY:
        m.revealed_room_key = bin(r->seed, ENGINE_SEED_BYTES);
        m.record_case = MENTAT__ARCHIVE_RECORD__RECORD_REVEALED_ROOM_KEY;
        return pack(out, cap, len_out, &m.base);
    case CODEC_ARCHIVE_SEALED_SEED:
        if (r->bytes == NULL || r->bytes_len == 0)
            return SCHEMA_ERROR;
        m.sealed_seed = bin(r->bytes, r->bytes_len);
        m.record_case = MENTAT__ARCHIVE_RECORD__RECORD_SEALED_SEED;
        return pack(out, cap, len_out, &m.base);
    }
    m.record_case = (Mentat__ArchiveRecord__RecordCase)r->kind;
    return pack(out, cap, len_out, &m.base);
}

static int archive_record_from_wire(void *dst, ProtobufCMessage *msg, const uint8_t *in,
                                    size_t len, char *err)
{
    codec_archive_record *r = dst;
    Mentat__ArchiveRecord *m = (Mentat__ArchiveRecord *)msg;
    int rc;

    if (m->record_case == MENTAT__ARCHIVE_RECORD__RECORD__NOT_SET)
        return codec__fail(err, "ArchiveRecord: no record set");
    if (m->record_case == MENTAT__ARCHIVE_RECORD__RECORD_HEAD) {
        if ((rc = no_unknown_fields(&m->head->base, "ArchiveRecord.head", err)) != 0 ||
            (rc = receipt_from_wire(&r->head, &m->head->base, NULL, 0, err)) != 0)
            return rc;
        if (!r->head.has_tree_head)
            return codec__fail(err, "ArchiveRecord.head: no tree head");
        r->kind = CODEC_ARCHIVE_HEAD;
        return SCHEMA_OK;
    }
    if (m->record_case == MENTAT__ARCHIVE_RECORD__RECORD_ROOM_KEY) {
        r->bytes = wire_find(&r->bytes_len, in, len, (uint64_t)m->record_case);
        if (r->bytes == NULL || r->bytes_len != m->room_key.len || r->bytes_len == 0)
            return codec__fail(err, "ArchiveRecord: malformed room key record");
        r->kind = CODEC_ARCHIVE_ROOM_KEY;
        return SCHEMA_OK;
    }
    if (m->record_case == MENTAT__ARCHIVE_RECORD__RECORD_SEALED_SEED) {
        r->bytes = wire_find(&r->bytes_len, in, len, (uint64_t)m->record_case);
        if (r->bytes == NULL || r->bytes_len != m->sealed_seed.len || r->bytes_len == 0)
            return codec__fail(err, "ArchiveRecord: malformed sealed seed record");
        r->kind = CODEC_ARCHIVE_SEALED_SEED;
        return SCHEMA_OK;
    }
    if (m->record_case == MENTAT__ARCHIVE_RECORD__RECORD_REVEALED_ROOM_KEY) {
        if ((rc = bytes_from_wire(r->seed, ENGINE_SEED_BYTES, &m->revealed_room_key,
                                  "ArchiveRecord.revealed_room_key", err)) != 0)
            return rc;
        r->kind = CODEC_ARCHIVE_REVEALED_ROOM_KEY;
        return SCHEMA_OK;
    }
    switch ((codec_archive_kind)m->record_case) {
    case CODEC_ARCHIVE_HEADER:
        if ((rc = no_unknown_fields(&m->header->base, "ArchiveRecord.header", err)) != 0)
            return rc;
        r->format_version = m->header->format_version;
        if ((rc = room_from_wire(r->room, m->header->room, "ArchiveRecord.header.room", err)) != 0)
            return rc;
        r->n_events = m->header->n_events;
        r->created_at = m->header->created_at;
        break;
    case CODEC_ARCHIVE_KEY:
        if ((rc = key_from_wire(&r->key, m->key, "ArchiveRecord.key", err)) != 0)
            return rc;
        break;
    case CODEC_ARCHIVE_GENESIS:
    case CODEC_ARCHIVE_EVENT:
        r->bytes = wire_find(&r->bytes_len, in, len, (uint64_t)m->record_case);
        if (r->bytes == NULL
            || r->bytes_len != (m->record_case == MENTAT__ARCHIVE_RECORD__RECORD_GENESIS
                                    ? m->genesis.len : m->event.len))
            return codec__fail(err, "ArchiveRecord: malformed stored record");
        break;
    case CODEC_ARCHIVE_REVEALED_SEED:
        if ((rc = bytes_from_wire(r->seed, ENGINE_SEED_BYTES, &m->revealed_seed,
                                  "ArchiveRecord.revealed_seed", err)) != 0)
            return rc;
        break;
    case CODEC_ARCHIVE_TRAILER:
        if ((rc = no_unknown_fields(&m->trailer->base, "ArchiveRecord.trailer", err)) != 0)
            return rc;
        r->n_records = m->trailer->n_records;
        if ((rc = bytes_from_wire(r->digest, SCHEMA_HASH_BYTES, &m->trailer->digest,
                                  "ArchiveRecord.trailer.digest", err)) != 0)
            return rc;
        break;
    case CODEC_ARCHIVE_HEAD: /* fields 800, 1100, 1101 and 1260, taken above */
    case CODEC_ARCHIVE_ROOM_KEY:
    case CODEC_ARCHIVE_REVEALED_ROOM_KEY:
    case CODEC_ARCHIVE_SEALED_SEED:
        return codec__fail(err, "ArchiveRecord: unknown record");
    }
    r->kind = (uint8_t)m->record_case;
    return SCHEMA_OK;
}

int codec_archive_record_decode(codec_archive_record *out, const uint8_t *in, size_t len,
                                char *err)
{
    return decode(out, sizeof *out, &mentat__archive_record__descriptor,
                  archive_record_from_wire, in, len, err);
}
