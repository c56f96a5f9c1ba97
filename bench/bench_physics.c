/* SPDX-License-Identifier: Zlib */
/*
 * Physics against Bullet on the same scene (physics_scene.h): N crates and spheres falling
 * onto a level of fixed wall boxes and settling, 60 steps a second for 5 s, gravity 9.81.
 * Each engine's time is the CPU time its thread spends stepping (building the world is
 * not counted; CPU time rather than wall time, so that other processes on a busy machine
 * count less); the cost is nanoseconds per moving body and step. Best of five rounds, each
 * running every N with both engines, since the machine may be busy.
 *
 * Prints, for each N:
 *   PHYS engine=earshot N=.. ns_per_body_step=..
 *   PHYS engine=bullet N=.. ns_per_body_step=..
 *   PHYS ratio N=.. earshot_over_bullet=..
 * and finally the scaling of Earshot's cost from the first N to the last.
 * Usage: bench_physics [N...]   (default 1000 10000)
 */
#include "earshot/physics.h"
#include "physics_scene.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEPS 300
#define RUNS  5

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A tiny deterministic generator (the scene must be the same for both engines). */
static uint32_t next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static float uniform(uint64_t *s, float lo, float hi) {
    return lo + (hi - lo) * (float)next(s) / 2147483648.0f;
}

int phys_scene_build(phys_scene *s, uint32_t n) {
    memset(s, 0, sizeof *s);
    s->gravity = 9.81f;
    s->dt = 1.0f / 60.0f;
    s->bounciness = 0.2f;
    s->friction = 0.5f;
    /* About one body per 2 m^2 of floor, in rooms 8 m across. */
    uint32_t rooms = (uint32_t)ceil(sqrt((double)n * 2.0 / 64.0));
    float side = (float)rooms * 8.0f;
    uint32_t walls = 2 * (rooms + 1);
    s->bodies = calloc((size_t)n + walls + 1, sizeof *s->bodies);
    if (!s->bodies) return 1;
    phys_box *b = s->bodies;
    /* The floor. */
    b[s->count++] =
        (phys_box){side / 2, -0.5f, side / 2, side / 2 + 1, 0.5f, side / 2 + 1, 0, 1};
    /* Walls along x and along z every 8 m, 2 m high, 0.25 m thick (merged runs). */
    for (uint32_t i = 0; i <= rooms; i++) {
        float c = (float)i * 8.0f;
        b[s->count++] = (phys_box){side / 2, 1, c, side / 2, 1, 0.25f, 0, 1};
        b[s->count++] = (phys_box){c, 1, side / 2, 0.25f, 1, side / 2, 0, 1};
    }
    uint64_t seed = 12345;
    for (uint32_t i = 0; i < n; i++) {
        phys_box m;
        memset(&m, 0, sizeof m);
        m.sphere = (int)(i % 2);
        float h = i % 4 < 2 ? 0.3f : 0.4f;
        m.hx = m.hy = m.hz = h;
        /* Inside a room, clear of the walls. */
        uint32_t room = next(&seed) % (rooms * rooms);
        float rx = (float)(room % rooms) * 8.0f, rz = (float)(room / rooms) * 8.0f;
        m.x = rx + uniform(&seed, 0.25f + h + 0.05f, 8.0f - 0.25f - h - 0.05f);
        m.z = rz + uniform(&seed, 0.25f + h + 0.05f, 8.0f - 0.25f - h - 0.05f);
        m.y = uniform(&seed, h + 0.1f, 6.0f);
        b[s->count++] = m;
    }
    s->moving = n;
    return 0;
}

void phys_scene_free(phys_scene *s) {
    free(s->bodies);
    memset(s, 0, sizeof *s);
}

static double earshot_run(const phys_scene *s, uint32_t steps, double *out_mean_y) {
    ear_physics_config c = ear_physics_config_default();
    c.gravity_mps2 = ear_vec3_make(0, -s->gravity, 0);
    /* PHYS_CELL=<m> overrides the grid's cell (how the default was chosen). */
    const char *cell = getenv("PHYS_CELL");
    if (cell) c.grid_cell_m = (float)atof(cell);
    ear_physics *w;
    if (ear_physics_create(&c, &w) != EAR_OK) return -1;
    ear_physics_reserve(w, s->count);
    for (uint32_t i = 0; i < s->count; i++) {
        const phys_box *b = &s->bodies[i];
        ear_body_desc d = ear_body_desc_default();
        d.kind = b->fixed ? EAR_BODY_FIXED : EAR_BODY_DYNAMIC;
        d.shape = b->sphere ? EAR_SHAPE_SPHERE : EAR_SHAPE_BOX;
        d.half_extents_m = ear_vec3_make(b->hx, b->hy, b->hz);
        d.radius_m = b->hx;
        d.position_m = ear_vec3_make(b->x, b->y, b->z);
        d.bounciness = s->bounciness;
        d.friction = s->friction;
        ear_body_id id;
        if (ear_physics_add_body(w, &d, &id) != EAR_OK) return -1;
    }
    double t0 = now_s();
    for (uint32_t k = 0; k < steps; k++) {
        ear_physics_step(w, s->dt);
        ear_physics_clear_events(w); /* once a frame, as the runner does */
    }
    double elapsed = now_s() - t0;
    double y = 0;
    for (uint32_t i = 0; i < ear_physics_body_count(w); i++) {
        ear_body_info info;
        ear_body_get(w, ear_physics_body_at(w, i), &info);
        if (info.desc.kind == EAR_BODY_DYNAMIC) y += info.desc.position_m.y;
    }
    *out_mean_y = y / s->moving;
    ear_physics_destroy(w);
    return elapsed;
}

int main(int argc, char **argv) {
    uint32_t ns[8] = {1000, 10000};
    int count = 2;
    if (argc > 1) {
        count = 0;
        for (int i = 1; i < argc && count < 8; i++) ns[count++] = (uint32_t)atoi(argv[i]);
    }
    /* PHYS_ONLY=earshot skips Bullet (for profiling). */
    const char *only = getenv("PHYS_ONLY");
    bool earshot_only = only && strcmp(only, "earshot") == 0;
    int runs = earshot_only ? 1 : RUNS;
    printf("# physics: %d steps at 60 Hz, best of %d runs per engine and N, engines and sizes "
           "alternated\n",
           STEPS, runs);
    phys_scene scenes[8];
    double best_e[8], best_b[8], ye[8], yb[8];
    for (int k = 0; k < count; k++) {
        if (phys_scene_build(&scenes[k], ns[k]) != 0) return 1;
        best_e[k] = best_b[k] = 1e30;
        ye[k] = yb[k] = 0;
    }
    /* Each round runs every size with both engines, so a change in the machine's load
     * falls on all of them alike. */
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < count; k++) {
            double te = earshot_run(&scenes[k], STEPS, &ye[k]);
            double tb = earshot_only ? 1 : bullet_run(&scenes[k], STEPS, &yb[k]);
            if (te < 0) return 1;
            if (te < best_e[k]) best_e[k] = te;
            if (tb < best_b[k]) best_b[k] = tb;
        }
    }
    double first_cost = 0, last_cost = 0;
    for (int k = 0; k < count; k++) {
        const phys_scene *s = &scenes[k];
        double per = (double)s->moving * STEPS;
        double ce = best_e[k] / per * 1e9, cb = best_b[k] / per * 1e9;
        printf("# N=%u: %u bodies in all (%u fixed); mean height at the end: earshot %.3f m, "
               "bullet %.3f m\n",
               ns[k], s->count, s->count - s->moving, ye[k], yb[k]);
        printf("PHYS engine=earshot N=%u ns_per_body_step=%.1f\n", ns[k], ce);
        printf("PHYS engine=bullet N=%u ns_per_body_step=%.1f\n", ns[k], cb);
        printf("PHYS ratio N=%u earshot_over_bullet=%.3f\n", ns[k], ce / cb);
        if (k == 0) first_cost = ce;
        last_cost = ce;
        phys_scene_free(&scenes[k]);
    }
    if (count > 1)
        printf("PHYS scaling earshot N=%u/N=%u cost_ratio=%.3f\n", ns[count - 1], ns[0],
               last_cost / first_cost);
    fflush(stdout);
    return 0;
}
