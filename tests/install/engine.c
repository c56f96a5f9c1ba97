/* SPDX-License-Identifier: Zlib */
/*
 * The whole engine through its installed package (libearshot, pkg-config `earshot`, CMake
 * Earshot::earshot): the README's horn played through the command registry, which lives in
 * libearshot and brings libearshot-audio and jansson with it. Prints the doppler figure,
 * 440 * 343 / (343 - 30) = 482.2 Hz, as examples/horn.c does.
 */
#include <earshot/commands.h>

#include <stdio.h>

static json_t *run(ear_commands *c, const char *name, const char *params) {
    json_t *err = NULL;
    json_t *p = json_loads(params, 0, NULL);
    json_t *result = ear_commands_run(c, name, p, &err); /* params are borrowed */
    json_decref(p);
    if (!result)
        fprintf(stderr, "%s: %s\n", name, json_string_value(json_object_get(err, "message")));
    json_decref(err);
    return result;
}

int main(void) {
    ear_commands *c;
    if (ear_commands_create(NULL, &c) != EAR_OK) return 1;
    json_t *play = run(c, "audio.play",
                       "{\"sound\": \"synth:sine:440:1\", \"looping\": true, \"position\": "
                       "[-200, 0, 0], \"velocity\": [30, 0, 0], \"model\": \"none\"}");
    json_t *render = play ? run(c, "audio.render_offline", "{\"seconds\": 1}") : NULL;
    json_t *hz = json_object_get(render, "dominant_hz");
    int status = json_is_number(hz) ? 0 : 1;
    if (status == 0) printf("%.1f Hz\n", json_number_value(hz));
    json_decref(play);
    json_decref(render);
    ear_commands_destroy(c);
    return status;
}
