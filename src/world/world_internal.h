/* SPDX-License-Identifier: Zlib */
/*
 * The audio world's insides, shared by world.c (components, reconcile, events) and
 * body_read.c (what the world reads from a body: velocity by the teleport rule, drive
 * paths, drawing interpolation).
 */
#ifndef EAR_WORLD_INTERNAL_H
#define EAR_WORLD_INTERNAL_H

#include "earshot/world.h"

#define EAR__WORLD_SENT_PARAMS (EAR_BLEND_MAX_PARAMS + EAR_WORLD_MAX_DRIVES)

/* A source's runtime state next to the component the game wrote. */
typedef struct ear__src {
    ear_source want;       /* as the game set it (play cleared when a one-shot ends) */
    ear_source started_as; /* the fields the voice was started with */
    ear_voice_id voice;
    bool trigger; /* a false -> true change of play waits to start a one-shot */
    bool failed;  /* the name did not resolve: retried when the library changes (a sound
                     defined or loaded) or the source is set again */
    bool held;    /* its voice was stopped by a pause; it restarts at held_frame */
    uint64_t held_frame;
    bool sent_valid;
    ear_vec3 sent_pos, sent_vel, sent_fwd;
    float sent_volume, sent_pitch, sent_occ, sent_send;
    float occ_target;
    uint32_t sent_param_count;
    ear_param_value sent_params[EAR__WORLD_SENT_PARAMS];
} ear__src;

/* Everything the world keeps about one body. */
typedef struct ear__entry {
    ear_body_id body;
    bool has_source, has_listener, has_impact, has_vehicle, followed;
    uint32_t attached; /* attached voices on this body */
    ear__src src;
    ear_listener_component listener;
    ear_impact impact;
    bool hit_before;
    double last_hit_s;
    ear_vehicle_sound vsound;
    ear_voice_id engine;
    bool engine_failed;
    bool engine_sent_valid;
    ear_vec3 engine_pos, engine_vel;
    float engine_rpm, engine_load, engine_pitch, engine_volume;
    /* This sync's reading of the body (valid once read). */
    ear_body_info info;
    bool info_valid;
    ear_vec3 velocity; /* by the rule: physics velocity or motion since the last sync */
    ear_vec3 last_pos; /* the position at the last sync */
    bool last_valid;
    ear_pose_track track;
} ear__entry;

typedef struct ear__attached {
    ear_body_id body;
    ear_voice_id voice;
    float volume; /* as asked (the ear's absence and a pause silence it) */
    bool silenced;
    ear_vec3 sent_pos, sent_vel;
} ear__attached;

typedef struct ear__event {
    ear_world_event_id id;
    char name[EAR_SOUND_NAME_MAX];
    ear_vec3 position;
    ear_event_params params;
} ear__event;

struct ear_world {
    ear_world_config config;
    ear_rng rng;
    ear__entry *entries; /* sorted by body id */
    size_t entry_count, entry_cap;
    ear__attached *attached;
    size_t attached_count, attached_cap;
    ear__event *events;
    size_t event_count, event_cap;
    ear_world_event_id next_event_id;
    bool paused;           /* ear_world_set_paused: the world's voices are held */
    uint64_t library_seen; /* the assets' loads + definitions and the stage's blends */
    char **once;
    size_t once_count, once_cap;

    ear_body_id follow;
    ear_body_id ear; /* after the last sync */
    bool have_ear;
    ear_vec3 ear_pos;
    bool listener_sent;
    ear_listener sent_listener;
    float sent_master;
    bool master_sent;
    bool said_no_ear;
    uint64_t next_event_step; /* physics events from this step on are not seen yet */
    double last_dt;
    /* The physics clock at the last sync, and how far it stepped before this one (0: no
     * step in this frame). phys_stepped: some sync has seen the physics step. */
    uint64_t phys_steps_seen;
    double phys_time_seen_s, sync_phys_dt_s;
    bool phys_stepped;
    ear_world_stats stats;
    /* Reverb zones (zones.c), in the order they were first set. */
    ear_reverb_zone *zones;
    size_t zone_count;
    size_t zone_in;            /* 1 + the zone whose room is set; 0 outside every zone */
    bool zones_changed;        /* a zone was set or removed since the last sync */
    ear_reverb_params outside; /* the stage's room before the ear entered a zone */
};

/* Reads the body into e->info and works out e->velocity (dynamic bodies and vehicles: the
 * physics velocity; others: the motion since the last sync over the physics time stepped
 * since (w->sync_phys_dt_s), or over dt when the physics did not step and the body moved;
 * a still body in a frame without a step keeps its velocity; 0 for a jump faster than
 * teleport_speed_mps or on the first sync). dt_s 0 (a read between syncs) leaves the
 * velocity and the motion's start alone. False when the body is gone. */
bool ear__read_body(ear_world *w, ear__entry *e, double dt_s);
/* zones.c: after the ear is placed (sync step 2), the room of the zone it is in. */
void ear__world_zones_sync(ear_world *w);
/* Reads a drive binding's path on the entry's body; false when it does not resolve. */
bool ear__drive_value(const ear_world *w, const ear__entry *e, const char *from, float *out);

#endif
