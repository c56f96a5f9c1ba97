/* SPDX-License-Identifier: Zlib */
/*
 * The physics benchmark's scene, shared by both engines' sides: a level of fixed wall
 * boxes (a floor and a grid of walls, like an ASCII level's merged runs) with N crates
 * and spheres that fall from up to 6 m and settle on the floor and on each other.
 */
#ifndef EARSHOT_BENCH_PHYSICS_SCENE_H
#define EARSHOT_BENCH_PHYSICS_SCENE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct phys_box {
    float x, y, z;    /* centre, metres */
    float hx, hy, hz; /* half extents (spheres: hx is the radius) */
    int sphere;       /* 0: box, 1: sphere */
    int fixed;        /* 1: a wall or the floor (no mass) */
} phys_box;

typedef struct phys_scene {
    phys_box *bodies;
    uint32_t count, moving;
    float gravity, dt, bounciness, friction;
} phys_scene;

/* Builds the scene for n moving bodies (deterministic); 0 on success. */
int phys_scene_build(phys_scene *s, uint32_t n);
void phys_scene_free(phys_scene *s);

/* Bullet's side (bullet_physics.cpp): builds the same bodies in a btDiscreteDynamicsWorld
 * with angular factor 0, steps it `steps` times at s->dt and returns the seconds spent in
 * stepSimulation. *out_mean_y receives the moving bodies' mean height at the end (a check
 * that they settled). */
double bullet_run(const phys_scene *s, uint32_t steps, double *out_mean_y);

#ifdef __cplusplus
}
#endif

#endif
