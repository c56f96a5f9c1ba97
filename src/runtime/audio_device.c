/* SPDX-License-Identifier: Zlib */
/*
 * The engine's default audio hooks: the stage on the sound card through the device
 * module (src/audio/device). A game that sets its own hooks replaces these; a muted
 * engine never calls them. When no device can be heard (no sound card, EARSHOT_MUTE),
 * attach says so and the runner keeps rendering the stage itself, so the game runs the
 * same, silently.
 */
#include "earshot/device.h"
#include "runtime_internal.h"

ear_result ear__device_attach(ear_stage *stage, void *user, void **out_device) {
    (void)user;
    ear_device *device = NULL;
    ear_result r = ear_device_open(stage, NULL, &device);
    if (r != EAR_OK) return r;
    if (!ear_device_is_audible(device)) {
        ear_device_close(device);
        return EAR_E_NO_DEVICE;
    }
    *out_device = device;
    return EAR_OK;
}

void ear__device_update(void *device, void *user) {
    (void)user;
    ear_device_update(device);
}

void ear__device_detach(void *device, void *user) {
    (void)user;
    ear_device_close(device);
}
