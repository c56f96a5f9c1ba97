/* SPDX-License-Identifier: Zlib */
/*
 * Telling a text file from audio, so that a decoding error names the real cause ("is a
 * text file") rather than libsndfile's "Format not recognised" for both. Every audio
 * container Earshot reads has binary bytes (NULs, lengths) in its first few hundred
 * bytes; a text file has none.
 */
#define _POSIX_C_SOURCE 200809L /* pread */

#include "io_internal.h"

#include <unistd.h>

bool ear__io_is_text_fd(int fd) {
    unsigned char head[512];
    ssize_t got = pread(fd, head, sizeof head, 0);
    if (got <= 0) return false;
    size_t n = (size_t)got;
    for (size_t i = 0; i < n; i++) {
        unsigned char b = head[i];
        /* Tab, newlines, form feed and carriage return are text; other controls are not. */
        if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f') return false;
        if (b == 0x7f) return false;
        if (b < 0x80) continue;
        /* UTF-8: a lead byte and its continuation bytes (a sequence cut by the end of
         * the 512 bytes still counts). */
        size_t more = b >= 0xc2 && b <= 0xdf   ? 1
                      : b >= 0xe0 && b <= 0xef ? 2
                      : b >= 0xf0 && b <= 0xf4 ? 3
                                               : 0;
        if (!more) return false;
        for (size_t k = 1; k <= more && i + k < n; k++)
            if ((head[i + k] & 0xc0) != 0x80) return false;
        i += more;
    }
    return true;
}

bool ear__io_is_mp3_fd(int fd) {
    unsigned char h[10];
    off_t at = 0;
    if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h) return false;
    if (h[0] == 'I' && h[1] == 'D' && h[2] == '3') {
        /* An ID3v2 tag: 10 bytes and a syncsafe size (7 bits a byte); the frame follows. */
        if ((h[6] | h[7] | h[8] | h[9]) & 0x80u) return false;
        at = 10 + (((off_t)h[6] << 21) | ((off_t)h[7] << 14) | ((off_t)h[8] << 7) | h[9]);
        if (pread(fd, h, 4, at) != 4) return false;
    }
    /* Frame sync, a version that is not reserved, Layer III, a bit rate and a sample rate
     * that are not reserved. */
    bool sync = h[0] == 0xff && (h[1] & 0xe0) == 0xe0;
    unsigned version = (h[1] >> 3) & 3u, layer = (h[1] >> 1) & 3u;
    unsigned bitrate = h[2] >> 4, rate = (h[2] >> 2) & 3u;
    return sync && version != 1u && layer == 1u && bitrate != 15u && rate != 3u;
}
