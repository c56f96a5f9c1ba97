// Bullet's side of the physics benchmark (the bench may be C++ for Bullet only): the scene
// of physics_scene.h in a btDiscreteDynamicsWorld with the default collision
// configuration, the dynamic AABB tree broad phase and the sequential impulse solver.
// Moving bodies get an angular factor of 0, so like Earshot's they never rotate; shapes
// are shared between bodies of the same size. Bullet's own sleeping (deactivation) is
// left on, as Bullet ships.
#include "physics_scene.h"

#include <btBulletDynamicsCommon.h>

#include <map>
#include <memory>
#include <time.h>
#include <tuple>
#include <vector>

static double now_s() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

extern "C" double bullet_run(const phys_scene *s, uint32_t steps, double *out_mean_y) {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    world.setGravity(btVector3(0, -s->gravity, 0));

    std::map<std::tuple<float, float, float, int>, std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btDefaultMotionState>> states;
    std::vector<btRigidBody *> moving;
    for (uint32_t i = 0; i < s->count; i++) {
        const phys_box &b = s->bodies[i];
        auto key = std::make_tuple(b.hx, b.hy, b.hz, b.sphere);
        auto &shape = shapes[key];
        if (!shape) {
            if (b.sphere)
                shape.reset(new btSphereShape(b.hx));
            else
                shape.reset(new btBoxShape(btVector3(b.hx, b.hy, b.hz)));
        }
        btScalar mass = b.fixed ? 0 : 1;
        btVector3 inertia(0, 0, 0);
        if (!b.fixed) shape->calculateLocalInertia(mass, inertia);
        btTransform t;
        t.setIdentity();
        t.setOrigin(btVector3(b.x, b.y, b.z));
        states.emplace_back(new btDefaultMotionState(t));
        btRigidBody::btRigidBodyConstructionInfo info(mass, states.back().get(), shape.get(),
                                                      inertia);
        info.m_restitution = s->bounciness;
        info.m_friction = s->friction;
        bodies.emplace_back(new btRigidBody(info));
        btRigidBody *rb = bodies.back().get();
        if (!b.fixed) {
            rb->setAngularFactor(0);
            moving.push_back(rb);
        }
        world.addRigidBody(rb);
    }
    double t0 = now_s();
    for (uint32_t k = 0; k < steps; k++) world.stepSimulation(s->dt, 1, s->dt);
    double elapsed = now_s() - t0;
    double y = 0;
    for (btRigidBody *rb : moving) y += rb->getCenterOfMassPosition().y();
    *out_mean_y = moving.empty() ? 0 : y / (double)moving.size();
    for (auto &rb : bodies) world.removeRigidBody(rb.get());
    return elapsed;
}
