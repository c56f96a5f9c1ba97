/* SPDX-License-Identifier: Zlib */
/*
 * The audio world: sounds that live on physics bodies. A body says what it sounds like
 * (a source), the ear rides on a body (a listener), a body that hits something is heard
 * where and as hard as it hit (an impact sound), a vehicle's engine follows its rpm, a
 * wall between the ear and a source muffles it (occlusion by rays), and fire-and-forget
 * events play where something happened. See docs/modules/world.md.
 *
 * The world holds components keyed by body id and, once per frame (the runner's world
 * sync, or each step of a lockstep render), ear_world_sync reconciles them against the
 * stage: it reads the physics world and never changes it (audio never changes
 * ear_physics_hash), and it sends the stage only what changed since the last sync, so
 * an idle world sends nothing.
 *
 * One sync, in this order:
 *   1. removed bodies: their sources, engines and attached sounds stop with the ramp;
 *   2. the ear: the followed body, else the first enabled listener in id order; its
 *      pose (position, facing, pitch), velocity and master gain;
 *   3. reverb zones: the zone the ear is in sets the stage's room;
 *   4. this frame's physics events: impact sounds (CollisionStarted), vehicles' shift
 *      (GearChanged) and crash (Crashed) sounds;
 *   5. sources, in id order: start, restart, stop, then the live fields (volume, pitch,
 *      motion, forward, occlusion, blend parameters and drive bindings);
 *   6. vehicles' engine loops;
 *   7. attached sounds: moved with their bodies, dropped when finished;
 *   8. queued fire-and-forget events start (placed where they were made); entries left
 *      with nothing to do (a removed source whose voice ended) are dropped.
 *
 * Everything here is Thread: game (the thread that owns the stage and the physics).
 */
#ifndef EARSHOT_WORLD_H
#define EARSHOT_WORLD_H

#include "earshot/assets.h"
#include "earshot/core.h"
#include "earshot/mixer.h"
#include "earshot/physics.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EAR_WORLD_MAX_DRIVES 8
#define EAR_WORLD_PATH_MAX   48 /* a drive binding's "from", with the NUL */

typedef struct ear_world ear_world;

typedef struct ear_world_config {
    ear_stage *stage;           /* required, borrowed: where the sounds play */
    ear_assets *assets;         /* required, borrowed: sound and blend names */
    const ear_physics *physics; /* required, borrowed, only read */
    float teleport_speed_mps;   /* a motion faster than this between two syncs is a
                                   teleport: velocity 0; default 400 */
    float occlusion_per_body;   /* occlusion each body between adds; default 0.75 */
    float stop_fade_s;          /* the stop ramp; default 0.005 (5 ms, the stage's least) */
    float engine_fade_s;        /* a vehicle's engine loop fades over this; default 0.3 */
    float snap_distance_m;      /* drawing: a move longer than this in one step is shown
                                   where it lands; default 2 */
    uint64_t seed;              /* random starts; default 1 */
} ear_world_config;

/* The defaults above (stage, assets and physics NULL). Thread: any. */
ear_world_config ear_world_config_default(void);

/* Creates a world over a stage, an assets cache and a physics world (all borrowed: they
 * must outlive it). EAR_E_INVALID_ARG for a NULL out, a missing stage, assets or physics,
 * or a value out of range (not finite, negative); EAR_E_OUT_OF_MEMORY. *out untouched on
 * failure. Thread: game. */
ear_result ear_world_create(const ear_world_config *config, ear_world **out);

/* Stops every voice the world started (with the ramp) and frees it. NULL does nothing.
 * Thread: game. */
void ear_world_destroy(ear_world *world);

/* Brings the stage in step with the physics (the order above). dt_s is the time since
 * the last sync (the frame's, or one step's in a lockstep render): it turns the motion
 * of bodies that are not dynamic into a velocity. EAR_E_INVALID_ARG for a dt that is not
 * finite or is negative (nothing happens). Problems with single sounds (a name nothing
 * answers to, a full voice budget) are warned once per name and do not fail the sync.
 * Thread: game. */
ear_result ear_world_sync(ear_world *world, double dt_s);

/* ---- Sources ------------------------------------------------------------------------ */

/* A blend parameter read from the body each sync: value = read * scale + offset. `from`:
 *   "vehicle.rpm", "vehicle.speed", "vehicle.load", "vehicle.gear", "vehicle.fuel",
 *   "vehicle.turn_rate" (a vehicle's read-outs),
 *   "@speed" (m/s), "@speed_kmh", "@forward_speed" (m/s along the facing, signed),
 *   or a numeric field of the body: "position.x|y|z", "velocity.x|y|z", "facing",
 *   "pitch", "mass", "on_ground" (0 or 1), "user_tag".
 * A path that does not resolve (no vehicle, an unknown name) leaves the parameter alone. */
typedef struct ear_drive {
    char param[EAR_NAME_MAX];
    char from[EAR_WORLD_PATH_MAX];
    float scale;  /* default 1 (ear_drive_default; a zeroed struct means 0) */
    float offset; /* default 0 */
} ear_drive;

/* A fixed blend parameter. */
typedef struct ear_param_value {
    char name[EAR_NAME_MAX];
    float value;
} ear_param_value;

/* What a body sounds like; start from ear_source_default(). One source is one voice.
 * Changing sound, blend, bus, looping, spatial, random_start or loop_crossfade_ms
 * restarts the voice; volume, pitch, occlusion, reverb_send, params and drive apply live; the
 * distance model, cone, doppler, priority and smoothing have no live setter on the stage,
 * so a change to them restarts a voice where its clip was (the old one ramps out). */
typedef struct ear_source {
    char sound[EAR_SOUND_NAME_MAX]; /* a sound name (assets.h), or "" */
    char blend[EAR_NAME_MAX];       /* a blend name, or "" (one of the two; the blend wins) */
    ear_bus bus;                    /* default EAR_BUS_SFX (a blend: its own bus unless set) */
    float volume;                   /* linear; default 1 */
    float pitch;                    /* default 1 */
    bool looping;                   /* default false (blends always loop) */
    bool play;                      /* the state the source wants; default true. A one-shot
                                       plays once per false -> true change and reads back false
                                       when it has ended */
    bool random_start;              /* a looping clip starts at a random frame; default false */
    bool spatial;                   /* placed on its body; default true (false: flat) */
    ear_attenuation attenuation;    /* model, ref (min) and max distance, rolloff; default:
                                       the stage's (inverse, 1 m, 100 m, 1) */
    ear_cone cone;                  /* along the body's facing; default off */
    float doppler;                  /* doppler factor; default 1 (0: none) */
    uint8_t priority;               /* default 0 */
    bool occlusion;                 /* cast rays for occlusion; default false */
    float smoothing_ms;             /* volume and pitch smoothing; default 20 */
    float loop_crossfade_ms;        /* default 0 */
    uint32_t param_count;           /* fixed blend parameters; default none */
    ear_param_value params[EAR_BLEND_MAX_PARAMS];
    uint32_t drive_count; /* drive bindings; default none */
    ear_drive drive[EAR_WORLD_MAX_DRIVES];
    float reverb_send; /* 0 .. 1, live: the voice's send to the room reverb (mixer.h); default
                          0 */
} ear_source;

/* The defaults above. Thread: any. */
ear_source ear_source_default(void);
/* A drive binding with scale 1 and offset 0 (param and from copied, truncated to fit).
 * Thread: any (pure). */
ear_drive ear_drive_default(const char *param, const char *from);

/* Gives `body` a source (copied), replacing the one it had. The voice starts, restarts
 * or changes at the next sync by the rules above. EAR_E_INVALID_ARG for NULLs, a source
 * with neither sound nor blend, or numbers that are not finite / negative volume;
 * EAR_E_STALE_ID for a body the physics does not hold; EAR_E_OUT_OF_MEMORY. Nothing
 * changes on failure. Thread: game. */
ear_result ear_world_set_source(ear_world *world, ear_body_id body, const ear_source *source);
/* Copies the body's source as it is now into *out (play reads false once a one-shot has
 * ended, as of the last sync). EAR_E_NOT_FOUND when the body has none, EAR_E_INVALID_ARG
 * for NULLs; *out untouched then. Thread: game. */
ear_result ear_world_get_source(const ear_world *world, ear_body_id body, ear_source *out);
/* Sets only `play` (a one-shot replays on false -> true; applied at the next sync).
 * EAR_E_NOT_FOUND without a source (nothing changes). Thread: game. */
ear_result ear_world_set_play(ear_world *world, ear_body_id body, bool play);
/* Removes the source; its voice stops with the ramp now. EAR_E_NOT_FOUND without one.
 * Thread: game. */
ear_result ear_world_remove_source(ear_world *world, ear_body_id body);
/* The source's voice (EAR_VOICE_NONE when it is not playing or the body has no source),
 * for measuring; the id is the stage's, owned by the world. Thread: game. */
ear_voice_id ear_world_source_voice(const ear_world *world, ear_body_id body);
/* The source's occlusion target as of the last sync (0..1; 0 without a source).
 * Thread: game. */
float ear_world_source_occlusion(const ear_world *world, ear_body_id body);

/* ---- Listener ------------------------------------------------------------------------- */

/* The ear on a body. The first enabled listener in id order is the ear (unless the world
 * follows a body); its pose is its body's position, facing and pitch; its volume is the
 * stage's master gain. With no ear, spatial sounds are silent (said once per world) and
 * flat ones play, and the master gain returns to 1. */
typedef struct ear_listener_component {
    bool enabled; /* default true */
    float volume; /* the master gain; default 1 */
} ear_listener_component;

/* The defaults above. Thread: any. */
ear_listener_component ear_listener_component_default(void);
/* Gives the body a listener (copied), replacing the one it had. EAR_E_INVALID_ARG for NULLs
 * or a volume negative or not finite, EAR_E_STALE_ID for a body the physics does not hold,
 * EAR_E_OUT_OF_MEMORY; nothing changes on failure. Thread: game. */
ear_result ear_world_set_listener(ear_world *world, ear_body_id body,
                                  const ear_listener_component *listener);
/* Removes the body's listener (the ear moves at the next sync). EAR_E_NOT_FOUND without
 * one. Thread: game. */
ear_result ear_world_remove_listener(ear_world *world, ear_body_id body);
/* The body the ear is on after the last sync, or EAR_BODY_NONE. Thread: game. */
ear_body_id ear_world_ear(const ear_world *world);

/* ---- Impact sounds -------------------------------------------------------------------- */

/* A sound where the body hits something: on CollisionStarted with an impact speed above
 * min_speed (the physics' closing speed; a fixed body is still), at the contact point,
 * with volume * (0.15 + 0.85 * clamp((speed - min) / (full - min), 0, 1)). Within
 * cooldown_s of its last hit the body is quiet (no machine-gunning). A hit of at least
 * duck_min_speed triggers the ducking rule `duck` for duck_hold_s. */
typedef struct ear_impact {
    char sound[EAR_SOUND_NAME_MAX]; /* a sound name, or "" */
    char pool[EAR_NAME_MAX];        /* a pool name, or "" (the pool wins) */
    ear_bus bus;                    /* default EAR_BUS_SFX (a pool: its own bus) */
    float min_speed_mps;            /* default 1 */
    float full_speed_mps;           /* default 10 (> min_speed) */
    float volume;                   /* default 1 */
    float cooldown_s;               /* default 0.1 */
    ear_attenuation attenuation;    /* default the stage's */
    uint8_t priority;               /* default 0 */
    char duck[EAR_NAME_MAX];        /* a ducking rule's name, or "" */
    float duck_hold_s;              /* default 0.5 */
    float duck_min_speed_mps;       /* default: full_speed_mps (0 here means that) */
    float reverb_send;              /* 0 .. 1: the hit's send to the room reverb (mixer.h);
                                       default 0 */
} ear_impact;

/* The defaults above. Thread: any. */
ear_impact ear_impact_default(void);
/* The volume of a hit at speed_mps by the line above (0 below min_speed or for NULL).
 * Pure. Thread: any. */
float ear_impact_volume(const ear_impact *impact, float speed_mps);
/* Gives the body an impact sound (copied), replacing the one it had. EAR_E_INVALID_ARG for
 * NULLs, neither sound nor pool, or a number negative or not finite; EAR_E_STALE_ID,
 * EAR_E_OUT_OF_MEMORY; nothing changes on failure. Thread: game. */
ear_result ear_world_set_impact(ear_world *world, ear_body_id body, const ear_impact *impact);
/* Removes it (a sound already playing plays on). EAR_E_NOT_FOUND without one.
 * Thread: game. */
ear_result ear_world_remove_impact(ear_world *world, ear_body_id body);

/* ---- Fire-and-forget events ----------------------------------------------------------- */

/* How an event plays; NULL or zero fields: defaults (volume 1, pitch 1, sfx, placed with
 * the stage's attenuation). */
typedef struct ear_event_params {
    float volume; /* 0 means 1 */
    float pitch;  /* 0 means 1 */
    ear_bus bus;
    bool flat; /* default false: placed at the position */
    ear_attenuation attenuation;
    uint8_t priority;
    float reverb_send; /* 0 (default: dry only) .. 1: the event's send to the room reverb
                          (mixer.h; a pool's pick sends the same) */
    uint64_t owner;    /* 0 (default): none; any other value the game chooses (a body's
                          id, an enemy's number) cancels it with its kin
                          (ear_world_cancel_events_of) */
} ear_event_params;

/* A queued event's id: 0 is none; ids are never reused within a world. */
typedef uint64_t ear_world_event_id;

/* Queues `name` (a pool registered on the stage, else a sound name) to play once at
 * position, at the end of the next sync (so the ear is where this frame put it), or of the
 * first sync after a pause (ear_world_set_paused). Returns the queued event's id, which
 * ear_world_cancel_event takes back until it plays; once it plays nothing comes back to
 * own: it cannot be stopped or moved. A placed event farther from the ear than its max
 * distance, where its model reaches silence, is dropped before the stage (a range at or
 * below the reference distance does not attenuate, so it plays); with no ear a placed event
 * is not heard. name and params are copied. Bad arguments (NULL, an empty or too long
 * name, a position not finite) and running out of memory are ignored with a warning and
 * return 0: the event is lost, the game goes on. Thread: game. */
ear_world_event_id ear_world_play_event(ear_world *world, const char *name, ear_vec3 position_m,
                                        const ear_event_params *params);
/* Takes a queued event back before it plays. EAR_E_NOT_FOUND when no event with that id
 * is queued (it played, was cancelled, or never was); EAR_E_INVALID_ARG for NULL.
 * Thread: game. */
ear_result ear_world_cancel_event(ear_world *world, ear_world_event_id id);
/* Takes back every queued event whose params.owner is `owner` (not 0) and returns how
 * many; 0 for NULL or owner 0. Thread: game. */
size_t ear_world_cancel_events_of(ear_world *world, uint64_t owner);
/* Events queued and not yet played. Thread: game. */
size_t ear_world_queued_events(const ear_world *world);

/* ---- Pause ------------------------------------------------------------------------------ */

/* Holds the world's sounds while the game is paused, and only those: the stage, its UI
 * and music buses, speech and its duck play on (the runner calls this each frame with the
 * game clock's pause, on every backend). Pausing stops each source's voice with the stop
 * ramp, keeping its clip position, and each engine loop with its fade; attached voices
 * are silenced (volume -1, their ids stay the game's) and go on in time; events already
 * playing ring out. While paused no source, engine or event starts (sources set or played
 * wait, queued events stay queued and can be cancelled), and syncs only read the bodies,
 * the ear and the zones. Resuming restarts each held source where its clip was (a blend
 * from its start: the stage has no start frame for blends), the engines, and brings the
 * attached voices back at the next sync. Setting the state it already has does nothing.
 * Thread: game. */
void ear_world_set_paused(ear_world *world, bool paused);
bool ear_world_paused(const ear_world *world);

/* ---- Vehicles' sounds ------------------------------------------------------------------ */

/* An engine loop on a vehicle body, started while its engine runs and faded when it stops
 * or the body goes: a blend driven by rpm and load (the parameters named below), or a
 * looping clip pitched by rpm, pitch = idle_pitch + (max_pitch - idle_pitch) *
 * (rpm - idle_rpm) / (max_rpm - idle_rpm). Shift and crash sounds play at the body for
 * the frame's GearChanged and Crashed events; a crash's volume follows the lost speed on
 * the impact line (15 % at 0.5 m/s, full at crash_full_speed_mps). */
typedef struct ear_vehicle_sound {
    char engine[EAR_SOUND_NAME_MAX]; /* a looping clip, or "" */
    char blend[EAR_NAME_MAX];        /* a blend (wins over engine), or "" */
    char rpm_param[EAR_NAME_MAX];    /* default "rpm" */
    char load_param[EAR_NAME_MAX];   /* default "load" ("": not driven) */
    float idle_pitch, max_pitch;     /* clip engines; default 1 and 2 */
    float volume;                    /* default 1 */
    ear_bus bus;                     /* default EAR_BUS_ENGINE */
    ear_attenuation attenuation;     /* default the stage's */
    char shift[EAR_SOUND_NAME_MAX];  /* played on a gear change, or "" */
    char crash[EAR_SOUND_NAME_MAX];  /* played on a crash, or "" */
    float crash_full_speed_mps;      /* default 15 */
} ear_vehicle_sound;

/* The defaults above. Thread: any. */
ear_vehicle_sound ear_vehicle_sound_default(void);
/* Gives the body vehicle sounds (copied; the body need not be a vehicle yet: the engine
 * runs only while it is one with its engine on). A changed engine, blend or bus fades the
 * old loop out. EAR_E_INVALID_ARG for NULLs or numbers negative or not finite,
 * EAR_E_STALE_ID, EAR_E_OUT_OF_MEMORY; nothing changes on failure. Thread: game. */
ear_result ear_world_set_vehicle_sound(ear_world *world, ear_body_id body,
                                       const ear_vehicle_sound *sound);
/* Removes them; the engine loop fades out now. EAR_E_NOT_FOUND without. Thread: game. */
ear_result ear_world_remove_vehicle_sound(ear_world *world, ear_body_id body);
/* The engine loop's voice, or EAR_VOICE_NONE. Thread: game. */
ear_voice_id ear_world_engine_voice(const ear_world *world, ear_body_id body);

/* ---- Shortcuts: follow, attach, once --------------------------------------------------- */

/* The ear rides `body` (position, facing, pitch), ahead of any listener component;
 * EAR_BODY_NONE stops following. EAR_E_STALE_ID for a body the physics does not hold
 * (nothing changes), EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_world_follow(ear_world *world, ear_body_id body);

/* Plays the sound `name` on `body` (params NULL: defaults; placed is forced) and moves it
 * with the body at each sync; the entry is dropped when the voice finishes, and the voice
 * stops with the ramp when the body goes. Writes the voice (out_voice may be NULL; the id is
 * the stage's, the world keeps tracking it). Errors: ear_assets_play's (a missing sound is
 * warned once and EAR_VOICE_NONE written), EAR_E_STALE_ID, EAR_E_INVALID_ARG,
 * EAR_E_OUT_OF_MEMORY; no voice starts on failure. Thread: game. */
ear_result ear_world_attach(ear_world *world, const char *name, ear_body_id body,
                            const ear_play *params, ear_voice_id *out_voice);
/* Attached voices still tracked (as of the last sync). Thread: game. */
size_t ear_world_attached_count(const ear_world *world);

/* True the first time a name is asked about, false after (a hint said once); the name is
 * copied. NULL is false; out of memory answers true without remembering. Thread: game. */
bool ear_world_once(ear_world *world, const char *name);

/* ---- Drawing: render interpolation ---------------------------------------------------- */

/* The sound is placed where the last step put each body; drawing blends the last two
 * steps. ear_world_note_step records the pose of every body with a component (call it
 * after each fixed step); ear_world_draw_position gives previous + (current - previous) *
 * alpha, or current when the body moved more than snap_distance_m in that step.
 * EAR_E_NOT_FOUND for a body the world does not track (or before its first note),
 * EAR_E_INVALID_ARG for NULLs or an alpha that is not finite. Thread: game. */
void ear_world_note_step(ear_world *world);
ear_result ear_world_draw_position(const ear_world *world, ear_body_id body, double alpha,
                                   ear_vec3 *out_m);

/* The same for any pose a game keeps itself: note after each step, blend when drawing
 * (an invalid track blends to the origin). Pure. Thread: any. */
typedef struct ear_pose_track {
    ear_vec3 previous, current;
    bool valid;
} ear_pose_track;
void ear_pose_track_note(ear_pose_track *track, ear_vec3 position_m);
ear_vec3 ear_pose_track_blend(const ear_pose_track *track, double alpha, float snap_m);

/* ---- Rooms: reverb zones -------------------------------------------------------------- */

/* A part of the level with its own room (mixer.h's reverb): an axis-aligned box. When the
 * ear (the listener, step 2 of a sync) is inside zones, the one of the highest priority
 * (then the smallest box, then the first set) sets the stage's room, reached over its
 * transition; leaving every zone brings back the room the stage had before the ear first
 * entered one (ear_stage_get_reverb then). Checked at every sync after the ear moves. */
#define EAR_WORLD_MAX_ZONES 64
typedef struct ear_reverb_zone {
    char name[EAR_NAME_MAX];
    ear_vec3 min_m, max_m;  /* the box's corners (min <= max on every axis) */
    ear_reverb_params room; /* the room inside */
    float transition_s;     /* how long the change takes; default 1 s (0 means 1) */
    int32_t priority;       /* nested zones: the highest wins; default 0 */
} ear_reverb_zone;

/* A zone named `name` with the room preset, a 1 s transition and an empty box at the
 * origin. Thread: any. */
ear_reverb_zone ear_reverb_zone_default(const char *name);
/* Adds the zone, or replaces the one of the same name (copied). EAR_E_INVALID_ARG for an
 * empty or too long name, a box with min above max or not finite, a room out of range
 * (ear_reverb_params_check) or a negative transition; EAR_E_STATE when 64 zones exist.
 * Nothing changes on failure. The next sync applies it. Thread: game. */
ear_result ear_world_set_reverb_zone(ear_world *world, const ear_reverb_zone *zone);
/* Removes the named zone (EAR_E_NOT_FOUND otherwise). Thread: game. */
ear_result ear_world_remove_reverb_zone(ear_world *world, const char *name);
/* How many zones exist, and the i-th in the order they were first set (false past the
 * end). Thread: game. */
size_t ear_world_reverb_zone_count(const ear_world *world);
bool ear_world_reverb_zone_at(const ear_world *world, size_t i, ear_reverb_zone *out);
/* The name of the zone whose room the ear is in after the last sync; NULL outside every
 * zone (borrowed until the zones change). Thread: game. */
const char *ear_world_current_zone(const ear_world *world);

/* ---- Counts ---------------------------------------------------------------------------- */

typedef struct ear_world_stats {
    uint64_t syncs;
    uint64_t started;          /* voices started (sources, impacts, events, engines ...) */
    uint64_t stopped;          /* voices stopped with the ramp */
    uint64_t impacts;          /* impact sounds played */
    uint64_t impacts_cooled;   /* hits held back by a cooldown */
    uint64_t events_dropped;   /* fire-and-forget events dropped as out of range */
    uint64_t ducks;            /* ducking rules fired by hard hits */
    uint64_t rays;             /* occlusion rays cast */
    uint64_t events_cancelled; /* queued events taken back before they played */
    uint64_t retries;          /* failed sources and engines tried again after the library
                                  changed (a sound or blend defined or loaded) */
} ear_world_stats;

/* The counts since creation (zeros for NULL). Thread: game. */
ear_world_stats ear_world_get_stats(const ear_world *world);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_WORLD_H */
