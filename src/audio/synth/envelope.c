/* SPDX-License-Identifier: Zlib */
/*
 * The envelope of a part: a linear attack from 0 to 1 over attack_s, then an
 * exponential decay exp(-(t - attack_s) / decay_s), multiplied over the last
 * release_frames frames by the ramp (frames - 1 - i) / release_frames, which is
 * exactly 0 on the last frame and one ramp step below 1 on the first frame of the
 * release. t = i / sample_rate. Each stage is skipped when its length is 0. The
 * exponential is the portable one (earshot/portable_math.h, within 4 ulp of a double):
 * the same bits natively and in the web build.
 */
#include "synth_internal.h"

#include "portable_math.h"

double ear__synth_envelope_at(const ear__synth_part *part, uint64_t i) {
    if (!part->has_envelope) return 1.0;
    double t = (double)i / (double)part->sample_rate;
    double level = 1.0;
    if (part->attack_s > 0.0 && t < part->attack_s) level = t / part->attack_s;
    if (part->decay_s > 0.0 && t > part->attack_s)
        level *= ear__exp(-(t - part->attack_s) / part->decay_s);
    if (part->release_frames > 0 && i + part->release_frames >= part->frames) {
        uint64_t left = part->frames - 1 - i; /* frames after this one */
        level *= (double)left / (double)part->release_frames;
    }
    return level;
}
