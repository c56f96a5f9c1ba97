/* SPDX-License-Identifier: Zlib */
/*
 * bench_memory: what things cost in memory, measured through the allocator, never
 * estimated.
 *
 *   bench_memory [sofa]      default: the KEMAR set at EAR_HRTF_DEFAULT_PATH
 *
 * Objects that take an ear_allocator get a counting one (each block carries its size in a
 * 16-byte header, so the count is exact bytes asked for): the stage (its one allocation,
 * and the HRTF bank ear_stage_set_hrtf makes beside it), clips, the physics world. The UI
 * allocates through the C library, so a widget's cost is read from glibc's own counters
 * (mallinfo2's bytes in use) around the calls. A per-thing figure is a slope between two
 * sizes, so what does not grow with the count (the stage's mix buffers, a bank's filters)
 * is not charged to one voice:
 *
 *   voice slot        (stage at 4096 voices - stage at 1024) / 3072, max_voices and
 *                     max_total_voices both set to the count;
 *   HRTF voice slot   (bank at 1024 - bank at 256) / 768 (what set_hrtf adds per slot);
 *   second of clip    a 10 s clip at 48 kHz, mono and stereo, float and 16-bit
 *                     (EAR_CLIP_S16), / 10;
 *   reverb            the stage with its room reverb less the same with no_reverb;
 *   body              (world with room for 2000 bodies - for 1000) / 1000, and then
 *                     1000 bodies added (their names and shapes) / 1000;
 *   menu item         1000 buttons added to one menu / 1000.
 *
 * The last line is the one a script reads:
 *
 *   memory voice_bytes=<n> hrtf_voice_bytes=<n> stage_256=<n> stage_1024=<n> ...
 */
#define _GNU_SOURCE /* mallinfo2 */

#include "earshot/hrtf.h"
#include "earshot/physics.h"
#include "earshot/stage.h"
#include "earshot/ui.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct counter {
    int64_t now, peak;
} counter;

#define HEADER 16u

static void *count_alloc(size_t size, void *user) {
    counter *c = user;
    unsigned char *p = malloc(size + HEADER);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    c->now += (int64_t)size;
    if (c->now > c->peak) c->peak = c->now;
    return p + HEADER;
}

static void count_free(void *ptr, void *user) {
    if (!ptr) return;
    counter *c = user;
    unsigned char *p = (unsigned char *)ptr - HEADER;
    size_t size;
    memcpy(&size, p, sizeof size);
    c->now -= (int64_t)size;
    free(p);
}

static void *count_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return count_alloc(size, user);
    counter *c = user;
    unsigned char *p = (unsigned char *)ptr - HEADER;
    size_t old;
    memcpy(&old, p, sizeof old);
    unsigned char *q = realloc(p, size + HEADER);
    if (!q) return NULL;
    memcpy(q, &size, sizeof size);
    c->now += (int64_t)size - (int64_t)old;
    if (c->now > c->peak) c->peak = c->now;
    return q + HEADER;
}

static ear_allocator counting(counter *c) {
    return (ear_allocator){count_alloc, count_realloc, count_free, c};
}

/* The stage's bytes at `voices` voices (with or without its reverb); -1 on failure. */
static int64_t stage_bytes(uint32_t voices, bool reverb, const ear_stage_hrtf *hrtf,
                           int64_t *out_bank) {
    counter c = {0, 0};
    ear_allocator a = counting(&c);
    ear_stage_config sc = ear_stage_config_default();
    sc.max_voices = voices;
    sc.max_total_voices = voices;
    sc.no_reverb = !reverb;
    sc.allocator = &a;
    ear_stage *s;
    if (ear_stage_create(&sc, &s) != EAR_OK) return -1;
    int64_t bytes = c.now;
    if (hrtf) {
        if (ear_stage_set_hrtf(s, hrtf) != EAR_OK) return -1;
        *out_bank = c.now - bytes;
    }
    ear_stage_destroy(s);
    if (c.now != 0) fprintf(stderr, "bench_memory: the stage left %" PRId64 " bytes\n", c.now);
    return bytes;
}

static int64_t clip_bytes(uint32_t channels, uint32_t flags) {
    counter c = {0, 0};
    ear_allocator a = counting(&c);
    ear_clip *clip;
    if (ear_clip_create_ex(NULL, 480000, channels, 48000, flags, &a, &clip) != EAR_OK)
        return -1;
    int64_t bytes = c.now;
    ear_clip_release(clip);
    return bytes;
}

/* The world's bytes with room for `room` bodies, and after adding `added` spheres. */
static int physics_bytes(size_t room, size_t added, int64_t *out_room, int64_t *out_added) {
    counter c = {0, 0};
    ear_allocator a = counting(&c);
    ear_physics_config pc = ear_physics_config_default();
    pc.allocator = &a;
    ear_physics *w;
    if (ear_physics_create(&pc, &w) != EAR_OK || ear_physics_reserve(w, room) != EAR_OK)
        return 1;
    *out_room = c.now;
    for (size_t i = 0; i < added; i++) {
        char name[32];
        snprintf(name, sizeof name, "body %zu", i);
        ear_body_desc d = ear_body_desc_default();
        d.name = name;
        d.shape = EAR_SHAPE_SPHERE;
        d.position_m = (ear_vec3){(float)(i % 40) * 2.0f, 0.0f, (float)(i / 40) * 2.0f};
        ear_body_id id;
        if (ear_physics_add_body(w, &d, &id) != EAR_OK) return 1;
    }
    *out_added = c.now;
    ear_physics_destroy(w);
    return 0;
}

static int64_t in_use(void) {
    return (int64_t)mallinfo2().uordblks;
}

static int64_t menu_item_bytes(int items) {
    ear_ui_menu *m;
    if (ear_ui_menu_create(&(ear_ui_menu_config){.id = "bench"}, &m) != EAR_OK) return -1;
    int64_t before = in_use();
    for (int i = 0; i < items; i++) {
        char id[32];
        snprintf(id, sizeof id, "item.%d", i);
        if (ear_ui_menu_add(m, &(ear_ui_item){.id = id, .kind = EAR_UI_BUTTON}) != EAR_OK)
            return -1;
    }
    int64_t after = in_use();
    ear_ui_menu_destroy(m);
    return (after - before) / items;
}

int main(int argc, char **argv) {
    const char *sofa = argc > 1 ? argv[1] : EAR_HRTF_DEFAULT_PATH;
    int64_t s256 = stage_bytes(256, true, NULL, NULL);
    int64_t s1024 = stage_bytes(1024, true, NULL, NULL);
    int64_t s4096 = stage_bytes(4096, true, NULL, NULL);
    int64_t dry256 = stage_bytes(256, false, NULL, NULL);
    if (s256 < 0 || s1024 < 0 || s4096 < 0 || dry256 < 0)
        return fputs("bench_memory: a stage would not create\n", stderr), 1;

    ear_hrtf_config hc = ear_hrtf_config_default();
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err;
    if (ear_hrtf_load(sofa, &hc, &set, &err) != EAR_OK) {
        fprintf(stderr, "bench_memory: %s: %s\n", sofa, err.message);
        return 1;
    }
    ear_stage_hrtf view = ear_hrtf_stage_view(set);
    int64_t bank256 = 0, bank1024 = 0;
    if (stage_bytes(256, true, &view, &bank256) < 0 ||
        stage_bytes(1024, true, &view, &bank1024) < 0)
        return fputs("bench_memory: the HRTF set would not attach\n", stderr), 1;
    ear_hrtf_free(set);

    int64_t mono = clip_bytes(1, 0), stereo = clip_bytes(2, 0);
    int64_t mono16 = clip_bytes(1, EAR_CLIP_S16), stereo16 = clip_bytes(2, EAR_CLIP_S16);
    int64_t room1000, added1000, room2000, added2000;
    if (mono < 0 || stereo < 0 || mono16 < 0 || stereo16 < 0 ||
        physics_bytes(1000, 1000, &room1000, &added1000) ||
        physics_bytes(2000, 0, &room2000, &added2000))
        return fputs("bench_memory: a clip or the physics failed\n", stderr), 1;
    int64_t item = menu_item_bytes(1000);

    int64_t voice = (s4096 - s1024) / 3072;
    int64_t hrtf_voice = (bank1024 - bank256) / 768;
    printf("# bench_memory: bytes asked of the allocator\n");
    printf("%-36s %14s\n", "what", "bytes");
    printf("%-36s %14" PRId64 "\n", "stage, 256 voices", s256);
    printf("%-36s %14" PRId64 "\n", "stage, 1024 voices", s1024);
    printf("%-36s %14" PRId64 "\n", "stage, 4096 voices", s4096);
    printf("%-36s %14" PRId64 "\n", "a voice slot (pan)", voice);
    printf("%-36s %14" PRId64 "\n", "HRTF bank, 256 voices", bank256);
    printf("%-36s %14" PRId64 "\n", "HRTF bank, 1024 voices", bank1024);
    printf("%-36s %14" PRId64 "\n", "an HRTF voice slot (more)", hrtf_voice);
    printf("%-36s %14" PRId64 "\n", "the room reverb", s256 - dry256);
    printf("%-36s %14" PRId64 "\n", "a second of clip, mono 48 kHz", mono / 10);
    printf("%-36s %14" PRId64 "\n", "a second of clip, stereo 48 kHz", stereo / 10);
    printf("%-36s %14" PRId64 "\n", "the same, mono, 16-bit", mono16 / 10);
    printf("%-36s %14" PRId64 "\n", "the same, stereo, 16-bit", stereo16 / 10);
    printf("%-36s %14" PRId64 "\n", "a body's room (reserved)", (room2000 - room1000) / 1000);
    printf("%-36s %14" PRId64 "\n", "a body added (name, shape)",
           (added1000 - room1000) / 1000);
    printf("%-36s %14" PRId64 "\n", "a menu item (button)", item);
    printf("memory voice_bytes=%" PRId64 " hrtf_voice_bytes=%" PRId64 " stage_256=%" PRId64
           " stage_1024=%" PRId64 " stage_4096=%" PRId64 " reverb=%" PRId64
           " clip_second_mono=%" PRId64 " clip_second_mono_s16=%" PRId64 " body=%" PRId64
           " menu_item=%" PRId64 "\n",
           voice, hrtf_voice, s256, s1024, s4096, s256 - dry256, mono / 10, mono16 / 10,
           (room2000 - room1000) / 1000, item);
    return 0;
}
