/*
 * replay.c - any room at any version, as any viewer saw it: the state
 * after version V from the nearest checkpoint plus a fold
 * (ledger_state_at), then engine_view for the seat, the public or the
 * auditor.
 *
 * Layer: inspect. Reads the ledger and folds in memory; never writes to
 * the ledger. A seat's replay is its view and nothing more: the full state
 * never leaves this file for a seat or the public. Without the audit key
 * the public view is the one stored at the append, never a fold.
 */
#include <string.h>

#include "inspect/internal.h"

int inspect_viewer_is_valid(const engine_config *cfg, uint8_t viewer)
{
    return viewer == ENGINE_SEAT_ENGINE || viewer == ENGINE_VIEW_PUBLIC ||
           viewer < cfg->n_seats;
}

int inspect_room_replay(engine_state *out, ledger *db, const char *room, uint32_t version,
                        uint8_t viewer)
{
    engine_state full;
    int rc = ledger_state_at(db, &full, room, version);
    if (rc != 0)
        return rc;
    if (!inspect_viewer_is_valid(&full.config, viewer))
        return INSPECT_EINPUT;
    engine_view(out, &full, viewer);
    memset(&full, 0, sizeof full);
    return 0;
}

int inspect_room_view(engine_state *out, int *is_keyless_out, ledger *db, const char *room,
                      uint32_t version, uint8_t viewer)
{
    *is_keyless_out = 0;
    int rc = inspect_room_replay(out, db, room, version, viewer);
    if (rc != LEDGER_EKEY || (viewer != ENGINE_SEAT_ENGINE && viewer != ENGINE_VIEW_PUBLIC))
        return rc;
    rc = ledger_public_view_at(db, out, room, version);
    if (rc == LEDGER_ENOTFOUND)
        return LEDGER_EKEY; /* its message: the room keeps no public views */
    *is_keyless_out = rc == 0;
    return rc;
}
