/*
 * The first output of the chain, speech-dispatcher, against a stand-in daemon: a thread
 * that speaks enough SSIP (the protocol libspeechd uses) on a Unix socket to accept a
 * client, list two voices, queue messages and cancel. It logs every command, so the test
 * checks what Earshot asked of the screen reader's daemon and in which order.
 */
#define _DEFAULT_SOURCE
#include "earshot/speech.h"
#include "test.h"

#include <pthread.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

typedef struct fake_daemon {
    int listen_fd;
    pthread_mutex_t lock;
    char log[64][96];
    int count;
} fake_daemon;

static void note(fake_daemon *d, const char *prefix, const char *line) {
    pthread_mutex_lock(&d->lock);
    if (d->count < 64) snprintf(d->log[d->count++], 96, "%s%.80s", prefix, line);
    pthread_mutex_unlock(&d->lock);
}

static void reply(int fd, const char *text) {
    size_t n = strlen(text);
    while (n > 0) {
        ssize_t w = write(fd, text, n);
        if (w <= 0) return;
        text += w;
        n -= (size_t)w;
    }
}

static bool starts(const char *line, const char *prefix) {
    return strncasecmp(line, prefix, strlen(prefix)) == 0;
}

static void *serve(void *arg) {
    fake_daemon *d = arg;
    int fd = accept(d->listen_fd, NULL, NULL);
    if (fd < 0) return NULL;
    char buf[4096];
    size_t used = 0;
    bool data = false;
    for (;;) {
        ssize_t got = read(fd, buf + used, sizeof buf - 1 - used);
        if (got <= 0) break;
        used += (size_t)got;
        buf[used] = '\0';
        char *eol;
        while ((eol = strstr(buf, "\r\n")) != NULL) {
            *eol = '\0';
            char line[sizeof buf];
            memcpy(line, buf, (size_t)(eol - buf) + 1);
            memmove(buf, eol + 2, used - (size_t)(eol + 2 - buf) + 1);
            used = strlen(buf);
            if (data) {
                if (strcmp(line, ".") == 0) {
                    data = false;
                    reply(fd, "225-17\r\n225 OK MESSAGE QUEUED\r\n");
                } else {
                    note(d, "SAY ", line);
                }
                continue;
            }
            note(d, "", line);
            if (starts(line, "SET SELF CLIENT_NAME"))
                reply(fd, "208 OK CLIENT NAME SET\r\n");
            else if (starts(line, "SET SELF PRIORITY"))
                reply(fd, "202 OK PRIORITY SET\r\n");
            else if (starts(line, "SPEAK")) {
                data = true;
                reply(fd, "230 OK RECEIVING DATA\r\n");
            } else if (starts(line, "CANCEL"))
                reply(fd, "210 OK CANCELED\r\n");
            else if (starts(line, "LIST SYNTHESIS_VOICES"))
                reply(fd,
                      "249-Alice\ten\tnone\r\n249-Bob\tde\tnone\r\n249 OK VOICE LIST SENT\r\n");
            else if (starts(line, "SET SELF SYNTHESIS_VOICE"))
                reply(fd, "209 OK VOICE SET\r\n");
            else if (starts(line, "SET SELF RATE"))
                reply(fd, "203 OK RATE SET\r\n");
            else if (starts(line, "QUIT"))
                break;
            else
                reply(fd, "200 OK\r\n");
        }
    }
    close(fd);
    return NULL;
}

static int find(fake_daemon *d, const char *line, int from) {
    pthread_mutex_lock(&d->lock);
    int at = -1;
    for (int i = from; i < d->count && at < 0; i++)
        if (strcmp(d->log[i], line) == 0) at = i;
    pthread_mutex_unlock(&d->lock);
    return at;
}

static int wait_for(fake_daemon *d, const char *line) {
    for (int i = 0; i < 1000; i++) {
        int at = find(d, line, 0);
        if (at >= 0) return at;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    return -1;
}

TEST(speech_dispatcher_gets_messages_voices_and_cancels) {
#if defined(__SANITIZE_THREAD__)
    /* spd_close cancels libspeechd's reader thread (pthread_cancel) while it may hold
     * ThreadSanitizer's allocator lock, which deadlocks TSan's runtime. Nothing of ours
     * to check there: the ASan build runs this test. */
    printf("skipped under ThreadSanitizer (libspeechd's pthread_cancel)\n");
    return;
#endif
    static fake_daemon d = {.lock = PTHREAD_MUTEX_INITIALIZER};
    char dir[] = "/tmp/earshot-speechd-XXXXXX";
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s/speechd.sock", dir);
    d.listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_TRUE(d.listen_fd >= 0);
    ASSERT_OK(bind(d.listen_fd, (struct sockaddr *)&addr, sizeof addr));
    ASSERT_OK(listen(d.listen_fd, 1));
    pthread_t server;
    ASSERT_OK(pthread_create(&server, NULL, serve, &d));

    ear_speech_config cfg = ear_speech_config_default();
    cfg.client_name = "beacon";
    cfg.dispatcher_socket = addr.sun_path;
    cfg.voice = "Bob";
    cfg.rate = 20;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    ASSERT_EQ(ear_speech_voice_count(sp), 2);
    ASSERT_STR_EQ(ear_speech_voice_name(sp, 0), "Alice");
    ASSERT_STR_EQ(ear_speech_voice_name(sp, 1), "Bob");

    ASSERT_OK(ear_speech_speak_queued(sp, "one"));
    int one = wait_for(&d, "SAY one");
    ASSERT_GE(one, 0);
    ASSERT_OK(ear_speech_speak(sp, "two"));
    int two = wait_for(&d, "SAY two");
    ASSERT_GE(two, 0);
    ASSERT_OK(ear_speech_set_voice(sp, "Alice"));
    ASSERT_EQ(ear_speech_set_voice(sp, "Carol"), EAR_E_NOT_FOUND);
    ASSERT_GE(wait_for(&d, "SET SELF SYNTHESIS_VOICE Alice"), 0);
    ear_speech_destroy(sp);
    pthread_join(server, NULL);
    close(d.listen_fd);
    unlink(addr.sun_path);
    rmdir(dir);

    /* What the daemon heard, in order. */
    ASSERT_EQ(strncmp(d.log[0], "SET SELF CLIENT_NAME \"", 22), 0);
    ASSERT_TRUE(strstr(d.log[0], ":beacon:main\"") != NULL);
    ASSERT_STR_EQ(d.log[1], "SET SELF SYNTHESIS_VOICE Bob");
    ASSERT_STR_EQ(d.log[2], "SET SELF RATE 20");
    ASSERT_STR_EQ(d.log[3], "LIST SYNTHESIS_VOICES");
    /* A queued message: no cancel before it. */
    ASSERT_STR_EQ(d.log[one - 2], "SET SELF PRIORITY MESSAGE");
    ASSERT_EQ(strcasecmp(d.log[one - 1], "SPEAK"), 0);
    /* An interrupting one: cancel, then speak. */
    ASSERT_STR_EQ(d.log[two - 3], "CANCEL SELF");
    ASSERT_STR_EQ(d.log[two - 2], "SET SELF PRIORITY MESSAGE");
    ASSERT_GE(find(&d, "CANCEL SELF", two + 1), 0); /* destroy cancels what is said */
    ASSERT_EQ(find(&d, "CANCEL SELF", 4), two - 3); /* and nothing cancelled "one" */
}

TEST_MAIN(TEST_ENTRY(speech_dispatcher_gets_messages_voices_and_cancels))
