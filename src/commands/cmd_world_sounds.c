/* SPDX-License-Identifier: Zlib */
/*
 * The audio world's shortcuts as commands (docs/modules/world.md, "Shortcuts"): world.follow
 * puts the ear on a body, world.attach plays a sound that moves with a body, world.once
 * answers whether a name is asked about for the first time. All three act on the audio world
 * a world document built (world.load); without one they are E_STATE and change nothing.
 * What they start is heard as the world is synced: world.step and audio.render_offline
 * {"scene": true}.
 */
#include "commands_internal.h"

#include <string.h>

/* The audio world, or NULL with an E_STATE that says how to get one. */
static ear_world *audio_world(ear_commands *c, const char *command, json_t **err) {
    if (c->audio_world) return c->audio_world;
    *err = ear_command_error("E_STATE", "command",
                             "%s needs an audio world: load a world document (world.load) "
                             "first",
                             command);
    return NULL;
}

json_t *ear__cmd_world_follow(ear_commands *c, json_t *params, json_t **err) {
    ear_world *w = audio_world(c, "world.follow", err);
    if (!w) return NULL;
    const char *name = ear__str(params, "body");
    ear_body_id id = EAR_BODY_NONE;
    if (name) {
        id = ear__cmd_world_body(c, params, "body", err);
        if (id == EAR_BODY_NONE) return NULL;
    }
    ear_result r = ear_world_follow(w, id);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params.body", name);
        return NULL;
    }
    return json_pack("{s:o}", "following", name ? json_string(name) : json_null());
}

json_t *ear__cmd_world_attach(ear_commands *c, json_t *params, json_t **err) {
    ear_world *w = audio_world(c, "world.attach", err);
    if (!w) return NULL;
    ear_body_id id = ear__cmd_world_body(c, params, "body", err);
    if (id == EAR_BODY_NONE) return NULL;
    const char *sound = ear__str(params, "sound");
    if ((*err = ear__cmd_check_synth(c, sound, "params.sound"))) return NULL;
    /* audio.play's params (the schema admits those that make sense on a body); the
     * world places the voice on the body. */
    ear_play play = ear__cmd_play_params(params);
    ear_voice_id voice = EAR_VOICE_NONE;
    ear_result r = ear_world_attach(w, sound, id, &play, &voice);
    if (r != EAR_OK) {
        *err = ear__cmd_sound_error(c, r, "params.sound", sound);
        return NULL;
    }
    return json_pack("{s:I, s:s, s:I}", "voice", (json_int_t)voice, "body",
                     ear__str(params, "body"), "attached",
                     (json_int_t)ear_world_attached_count(w));
}

json_t *ear__cmd_world_once(ear_commands *c, json_t *params, json_t **err) {
    ear_world *w = audio_world(c, "world.once", err);
    if (!w) return NULL;
    return json_pack("{s:b}", "first", ear_world_once(w, ear__str(params, "name")));
}
