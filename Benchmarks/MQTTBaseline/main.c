/*
 * mqtt-baseline: what libmosquitto does from C, without Coaty, on the same broker and machine.
 * The Swift benchmarks (Benchmarks/CoatyBenchmarks) run it in the same run and report their own
 * figures as ratios to its figures.
 *
 *   mqtt-baseline throughput --port P [--host H] --count N --size S [--qos Q] [--extra K] [--hand-off]
 *       A subscriber (this process) and a publisher (a forked child), each its own client. The
 *       publisher sends N messages of S bytes on topic A, each followed by K messages on topic B,
 *       which nobody subscribes to (a non-canonical Coaty Advertise is two MQTT messages: K = 1).
 *       With --hand-off the subscriber's network thread copies each message and hands it to a
 *       second thread, which counts it (waking that thread when it waits): an agent's default
 *       threading, where the observer's task runs in the global pool.
 *       Prints: received=<n> seconds=<t> rate=<n/t>   (time from "go" to the N-th message on A)
 *
 *   mqtt-baseline roundtrip --port P [--host H] --rounds N [--warmup W] --request-size A
 *                           --reply-size B [--qos Q] [--subscribe-per-request [--pipelined]] [--nodelay]
 *                           [--quickack] [--extra K] [--blocks N] [--busy-poll] [--hand-off]
 *       A requester (this process) and a responder (a forked child) that answers each request on
 *       the topic named in its first line. Without --subscribe-per-request the requester subscribes
 *       once to one reply topic; with it, it subscribes to a fresh reply topic before every request,
 *       waits for the SUBACK, publishes, and unsubscribes after the reply. With --pipelined too, it
 *       publishes right behind the SUBSCRIBE without waiting for the SUBACK (coaty-js's pattern).
 *       Without --hand-off both sides drive their socket from one thread with mosquitto_loop.
 *       --nodelay sets TCP_NODELAY on both clients; --quickack sets TCP_QUICKACK after every turn of
 *       their loops, so they acknowledge at once what they read (at QoS 1 the broker's PUBACK is
 *       otherwise left unacknowledged for 40 ms, and the broker's Nagle algorithm holds the reply).
 *       --extra K publishes each request K more times, right behind it, on a topic nobody subscribes
 *       to (an Update of a non-canonical object type is two request messages: K = 1). Without
 *       --nodelay the second message waits for the ACK of the first (Nagle), up to 40 ms.
 *       --busy-poll makes the requester poll its socket while it waits for a reply (mosquitto_loop
 *       with no timeout, then sched_yield) instead of sleeping in select(): the agent's
 *       responseBusyPoll, for comparison.
 *       --hand-off gives each side a network thread that reads the socket and hands each message to
 *       a second thread, which does the work: the responder's publishes the reply, the requester's
 *       takes the reply and sends the next request. Both write to the socket themselves, under a
 *       lock they share with the network thread. This is an agent's default threading (handlers and
 *       the requester's task in the global pool, woken for each message), for comparison.
 *       --blocks N splits the measured rounds into N blocks: after the warmup it prints "warm"; each
 *       block waits for a line on stdin and ends by printing "block samples_us=<a>,<b>,..." (so that
 *       a caller can alternate its own rounds with these at a fine grain); it stops early at the end
 *       of stdin.
 *       Prints: rounds=<n> p50_us=<..> p90_us=<..> p99_us=<..> mean_us=<..>
 *
 *   mqtt-baseline idle --port P [--host H]
 *       One connected client with one subscription, idle for a second.
 *       Prints: rss_kb=<resident set size>
 *
 *   mqtt-baseline many --port P [--host H] --clients N
 *       N clients in this process, all driven by one poll() loop (no threads): each connects and
 *       subscribes to a request topic; then client 0 publishes one request and every client
 *       answers it on client 0's reply topic.
 *       Prints: clients=<n> join_s=<all subscribed> fanin_s=<request to last reply> rss_per_client_kb=<..>
 */
#define _GNU_SOURCE
#include <mosquitto.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sched.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct options {
    const char *host;
    int port;
    long count;
    long size;
    int qos;
    int extra;
    long rounds;
    long warmup;
    long request_size;
    long reply_size;
    long clients;
    long blocks;
    bool subscribe_per_request;
    bool pipelined;
    bool nodelay;
    bool quickack;
    bool busy_poll;
    bool hand_off;
};

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, int rc) {
    fprintf(stderr, "mqtt-baseline: %s: %s\n", what, rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
    exit(1);
}

static void write_byte(int fd, char byte) {
    if (write(fd, &byte, 1) != 1) { perror("mqtt-baseline: pipe write"); exit(1); }
}

static char read_byte(int fd) {
    char byte = 0;
    if (read(fd, &byte, 1) != 1) { perror("mqtt-baseline: pipe read"); exit(1); }
    return byte;
}

static struct mosquitto *new_client(const char *prefix, const struct options *options, void *context) {
    char id[64];
    snprintf(id, sizeof id, "%s-%d", prefix, (int)getpid());
    struct mosquitto *mosq = mosquitto_new(id, true, context);
    if (!mosq) die("mosquitto_new", MOSQ_ERR_NOMEM);
    if (options->nodelay) mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1);
    return mosq;
}

/* With --quickack: acknowledge at once what the last turn of the loop read. */
static void acknowledge_reads(struct mosquitto *mosq, const struct options *options) {
    if (!options->quickack) return;
    int on = 1;
    setsockopt(mosquitto_socket(mosq), IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
}

/* Connects and drives the handle with mosquitto_loop until `done` says so (single-threaded). */
static void loop_until(struct mosquitto *mosq, volatile bool *flag, const struct options *options) {
    while (!*flag) {
        int rc = mosquitto_loop(mosq, 1000, 1);
        if (rc != MOSQ_ERR_SUCCESS) die("mosquitto_loop", rc);
        acknowledge_reads(mosq, options);
    }
}

/* As loop_until, but with --busy-poll it polls instead of sleeping, yielding the CPU between polls. */
static void wait_for_reply(struct mosquitto *mosq, volatile bool *flag, const struct options *options) {
    if (!options->busy_poll) {
        loop_until(mosq, flag, options);
        return;
    }
    while (!*flag) {
        int rc = mosquitto_loop(mosq, 0, 1);
        if (rc != MOSQ_ERR_SUCCESS) die("mosquitto_loop", rc);
        acknowledge_reads(mosq, options);
        if (!*flag) sched_yield();
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Throughput */

struct subscriber {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    long target;
    long received;
    bool connected;
    bool subscribed;
    double last;
};

static void sub_on_connect(struct mosquitto *mosq, void *context, int rc) {
    (void)mosq;
    struct subscriber *s = context;
    if (rc != 0) { fprintf(stderr, "mqtt-baseline: CONNACK %d\n", rc); exit(1); }
    pthread_mutex_lock(&s->lock);
    s->connected = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

static void sub_on_subscribe(struct mosquitto *mosq, void *context, int mid, int count, const int *granted) {
    (void)mosq; (void)mid; (void)count; (void)granted;
    struct subscriber *s = context;
    pthread_mutex_lock(&s->lock);
    s->subscribed = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

/* Counts one message of the subscriber's. */
static void count_message(struct subscriber *s) {
    pthread_mutex_lock(&s->lock);
    s->received += 1;
    s->last = now_seconds();
    if (s->received >= s->target) pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

static void sub_on_message(struct mosquitto *mosq, void *context, const struct mosquitto_message *message) {
    (void)mosq; (void)message;
    count_message(context);
}

/* With --hand-off: the copied messages the network thread hands to the counting thread. */
struct inbox_message {
    struct inbox_message *next;
    int length;
    char payload[];
};

struct inbox {
    struct subscriber *subscriber;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct inbox_message *head, *tail;
    bool waiting;   /* the counting thread sleeps until a message arrives */
};

static void inbox_on_message(struct mosquitto *mosq, void *context, const struct mosquitto_message *message) {
    (void)mosq;
    struct inbox *inbox = context;
    struct inbox_message *copy = malloc(sizeof *copy + (size_t)message->payloadlen);
    if (!copy) die("malloc", MOSQ_ERR_NOMEM);
    copy->next = NULL;
    copy->length = message->payloadlen;
    memcpy(copy->payload, message->payload, (size_t)message->payloadlen);
    pthread_mutex_lock(&inbox->lock);
    if (inbox->tail) inbox->tail->next = copy; else inbox->head = copy;
    inbox->tail = copy;
    bool wakes = inbox->waiting;
    inbox->waiting = false;
    pthread_mutex_unlock(&inbox->lock);
    if (wakes) pthread_cond_signal(&inbox->changed);
}

/* The counting thread: takes what was handed over, counts and frees it, sleeps when nothing is left. */
static void *inbox_consume(void *context) {
    struct inbox *inbox = context;
    for (;;) {
        pthread_mutex_lock(&inbox->lock);
        while (!inbox->head) {
            inbox->waiting = true;
            pthread_cond_wait(&inbox->changed, &inbox->lock);
        }
        struct inbox_message *taken = inbox->head;
        inbox->head = inbox->tail = NULL;
        pthread_mutex_unlock(&inbox->lock);
        while (taken) {
            struct inbox_message *next = taken->next;
            count_message(inbox->subscriber);
            free(taken);
            taken = next;
        }
    }
    return NULL;
}

/* User and system CPU time of `who` (RUSAGE_SELF or RUSAGE_CHILDREN), in seconds. */
static double cpu_seconds(int who) {
    struct rusage usage;
    getrusage(who, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static void run_publisher(const struct options *options, const char *topic_a, const char *topic_b, int ready_fd, int go_fd) {
    struct subscriber state = { .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER };
    struct mosquitto *mosq = new_client("baseline-pub", options, &state);
    mosquitto_connect_callback_set(mosq, sub_on_connect);
    int rc = mosquitto_connect(mosq, options->host, options->port, 60);
    if (rc) die("connect (publisher)", rc);
    if ((rc = mosquitto_loop_start(mosq))) die("loop_start", rc);
    pthread_mutex_lock(&state.lock);
    while (!state.connected) pthread_cond_wait(&state.changed, &state.lock);
    pthread_mutex_unlock(&state.lock);

    char *payload = malloc((size_t)options->size);
    memset(payload, 'x', (size_t)options->size);
    write_byte(ready_fd, 'r');
    read_byte(go_fd);
    for (long i = 0; i < options->count; i++) {
        rc = mosquitto_publish(mosq, NULL, topic_a, (int)options->size, payload, options->qos, false);
        if (rc) die("publish", rc);
        for (int k = 0; k < options->extra; k++) {
            rc = mosquitto_publish(mosq, NULL, topic_b, (int)options->size, payload, options->qos, false);
            if (rc) die("publish", rc);
        }
    }
    read_byte(go_fd);  /* the subscriber has finished */
    mosquitto_disconnect(mosq);
    mosquitto_loop_stop(mosq, false);
    mosquitto_destroy(mosq);
    free(payload);
}

static int throughput(const struct options *options) {
    char topic_a[96], topic_b[96];
    snprintf(topic_a, sizeof topic_a, "baseline/%d/a", (int)getpid());
    snprintf(topic_b, sizeof topic_b, "baseline/%d/b", (int)getpid());
    int ready[2], go[2];
    if (pipe(ready) || pipe(go)) { perror("pipe"); return 1; }
    pid_t child = fork();
    if (child < 0) { perror("fork"); return 1; }
    if (child == 0) {
        mosquitto_lib_init();
        run_publisher(options, topic_a, topic_b, ready[1], go[0]);
        mosquitto_lib_cleanup();
        _exit(0);
    }

    struct subscriber state = { .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER,
                                .target = options->count };
    struct mosquitto *mosq = new_client("baseline-sub", options, &state);
    mosquitto_connect_callback_set(mosq, sub_on_connect);
    mosquitto_subscribe_callback_set(mosq, sub_on_subscribe);
    mosquitto_message_callback_set(mosq, sub_on_message);
    struct inbox inbox = { .subscriber = &state, .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER };
    if (options->hand_off) {
        /* The callbacks that run before the subscription see the subscriber; messages go to the inbox. */
        pthread_t consumer;
        if (pthread_create(&consumer, NULL, inbox_consume, &inbox)) { perror("mqtt-baseline: pthread_create"); return 1; }
        pthread_detach(consumer);
    }
    int rc = mosquitto_connect(mosq, options->host, options->port, 60);
    if (rc) die("connect (subscriber)", rc);
    if ((rc = mosquitto_loop_start(mosq))) die("loop_start", rc);
    pthread_mutex_lock(&state.lock);
    while (!state.connected) pthread_cond_wait(&state.changed, &state.lock);
    pthread_mutex_unlock(&state.lock);
    if ((rc = mosquitto_subscribe(mosq, NULL, topic_a, options->qos))) die("subscribe", rc);
    pthread_mutex_lock(&state.lock);
    while (!state.subscribed) pthread_cond_wait(&state.changed, &state.lock);
    pthread_mutex_unlock(&state.lock);
    if (options->hand_off) {
        mosquitto_user_data_set(mosq, &inbox);
        mosquitto_message_callback_set(mosq, inbox_on_message);
    }

    read_byte(ready[0]);
    double start = now_seconds();
    double cpu_start = cpu_seconds(RUSAGE_SELF);
    write_byte(go[1], 'g');
    /* Wait for all messages, or until none has come for three seconds (then some were lost). */
    pthread_mutex_lock(&state.lock);
    while (state.received < state.target) {
        double last = state.received > 0 ? state.last : now_seconds();
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 1;
        pthread_cond_timedwait(&state.changed, &state.lock, &deadline);
        if (state.received < state.target && now_seconds() - (state.received > 0 ? state.last : last) > 3.0
            && now_seconds() - start > 3.0) break;
    }
    long received = state.received;
    double end = state.last;
    pthread_mutex_unlock(&state.lock);
    double subscriber_cpu = cpu_seconds(RUSAGE_SELF) - cpu_start;
    write_byte(go[1], 'd');
    waitpid(child, NULL, 0);
    double publisher_cpu = cpu_seconds(RUSAGE_CHILDREN);
    mosquitto_disconnect(mosq);
    mosquitto_loop_stop(mosq, false);
    mosquitto_destroy(mosq);
    double seconds = end - start;
    double per = received > 0 ? 1e6 / (double)received : 0.0;
    printf("received=%ld seconds=%.6f rate=%.1f publisher_cpu_us=%.2f subscriber_cpu_us=%.2f\n", received, seconds,
           seconds > 0 ? (double)received / seconds : 0.0, publisher_cpu * per, subscriber_cpu * per);
    return received == options->count ? 0 : 2;
}

/* ------------------------------------------------------------------------------------------------ */
/* Round trip */

/* With --hand-off: a client's network thread, its lock, and the signal to the thread that works. */
struct hand_off {
    struct mosquitto *mosq;
    const struct options *options;
    pthread_mutex_t client;   /* held around every libmosquitto call once the network thread runs */
    pthread_mutex_t lock;     /* guards `ready` and `topic` */
    pthread_cond_t changed;
    bool ready;               /* a reply arrived (requester), a request waits (responder) */
    char topic[128];          /* the reply topic of the waiting request (responder) */
    volatile bool stop;
    pthread_t network;
};

struct peer {
    const struct options *options;
    bool connected;
    bool subscribed;
    bool replied;
    char *reply;
    struct hand_off *hand_off;  /* with --hand-off, once the network thread runs */
};

/* The network thread: polls the socket, then reads and writes under the client's lock. */
static void *hand_off_network(void *context) {
    struct hand_off *h = context;
    int fd = mosquitto_socket(h->mosq);
    while (!h->stop) {
        pthread_mutex_lock(&h->client);
        struct pollfd pfd = { .fd = fd, .events = POLLIN | (mosquitto_want_write(h->mosq) ? POLLOUT : 0) };
        pthread_mutex_unlock(&h->client);
        int ready = poll(&pfd, 1, 10);
        if (ready < 0 && errno != EINTR) break;
        pthread_mutex_lock(&h->client);
        int rc = MOSQ_ERR_SUCCESS;
        if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) rc = mosquitto_loop_read(h->mosq, 1);
        if (rc == MOSQ_ERR_SUCCESS && mosquitto_want_write(h->mosq)) rc = mosquitto_loop_write(h->mosq, 1);
        if (rc == MOSQ_ERR_SUCCESS && ready == 0) rc = mosquitto_loop_misc(h->mosq);
        pthread_mutex_unlock(&h->client);
        if (rc != MOSQ_ERR_SUCCESS) break;
        acknowledge_reads(h->mosq, h->options);
    }
    return NULL;
}

/* Starts the network thread of a connected client; from here on libmosquitto calls take `client`. */
static void hand_off_start(struct hand_off *h, struct mosquitto *mosq, struct peer *p) {
    *h = (struct hand_off){ .mosq = mosq, .options = p->options };
    pthread_mutex_init(&h->client, NULL);
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->changed, NULL);
    p->hand_off = h;
    if (pthread_create(&h->network, NULL, hand_off_network, h)) { perror("mqtt-baseline: pthread_create"); exit(1); }
}

/* Called by the network thread (in a message callback): wakes the working thread. */
static void hand_off_signal(struct hand_off *h, const char *topic) {
    pthread_mutex_lock(&h->lock);
    if (topic) snprintf(h->topic, sizeof h->topic, "%s", topic);
    h->ready = true;
    pthread_cond_signal(&h->changed);
    pthread_mutex_unlock(&h->lock);
}

/* The working thread sleeps until the network thread hands it a message; copies its topic, if any. */
static void hand_off_wait(struct hand_off *h, char *topic, size_t size) {
    pthread_mutex_lock(&h->lock);
    while (!h->ready) pthread_cond_wait(&h->changed, &h->lock);
    h->ready = false;
    if (topic) snprintf(topic, size, "%s", h->topic);
    pthread_mutex_unlock(&h->lock);
}

static void lock_client(struct peer *p) { if (p->hand_off) pthread_mutex_lock(&p->hand_off->client); }
static void unlock_client(struct peer *p) { if (p->hand_off) pthread_mutex_unlock(&p->hand_off->client); }

static void peer_on_connect(struct mosquitto *mosq, void *context, int rc) {
    (void)mosq;
    if (rc != 0) { fprintf(stderr, "mqtt-baseline: CONNACK %d\n", rc); exit(1); }
    ((struct peer *)context)->connected = true;
}

static void peer_on_subscribe(struct mosquitto *mosq, void *context, int mid, int count, const int *granted) {
    (void)mosq; (void)mid; (void)count; (void)granted;
    ((struct peer *)context)->subscribed = true;
}

static void responder_on_message(struct mosquitto *mosq, void *context, const struct mosquitto_message *message) {
    struct peer *p = context;
    /* The request's first line is the reply topic. */
    char topic[128];
    int length = 0;
    const char *bytes = message->payload;
    while (length < message->payloadlen && length < (int)sizeof topic - 1 && bytes[length] != '\n') {
        topic[length] = bytes[length];
        length++;
    }
    topic[length] = 0;
    if (p->hand_off) {
        hand_off_signal(p->hand_off, topic);
        return;
    }
    int rc = mosquitto_publish(mosq, NULL, topic, (int)p->options->reply_size, p->reply, p->options->qos, false);
    if (rc) die("publish (reply)", rc);
}

static void requester_on_message(struct mosquitto *mosq, void *context, const struct mosquitto_message *message) {
    (void)mosq; (void)message;
    struct peer *p = context;
    if (p->hand_off) hand_off_signal(p->hand_off, NULL);
    else p->replied = true;
}

static void connect_and_wait(struct mosquitto *mosq, struct peer *p, const char *who) {
    int rc = mosquitto_connect(mosq, p->options->host, p->options->port, 60);
    if (rc) die(who, rc);
    loop_until(mosq, &p->connected, p->options);
}

static void subscribe_and_wait(struct mosquitto *mosq, struct peer *p, const char *topic) {
    p->subscribed = false;
    int rc = mosquitto_subscribe(mosq, NULL, topic, p->options->qos);
    if (rc) die("subscribe", rc);
    loop_until(mosq, &p->subscribed, p->options);
}

static void run_responder(const struct options *options, const char *request_topic, int ready_fd) {
    struct peer p = { .options = options };
    p.reply = malloc((size_t)options->reply_size);
    memset(p.reply, 'y', (size_t)options->reply_size);
    struct mosquitto *mosq = new_client("baseline-responder", options, &p);
    mosquitto_connect_callback_set(mosq, peer_on_connect);
    mosquitto_subscribe_callback_set(mosq, peer_on_subscribe);
    mosquitto_message_callback_set(mosq, responder_on_message);
    connect_and_wait(mosq, &p, "connect (responder)");
    subscribe_and_wait(mosq, &p, request_topic);
    write_byte(ready_fd, 'r');
    if (options->hand_off) {
        struct hand_off h;
        hand_off_start(&h, mosq, &p);
        for (;;) {  /* the parent kills us */
            char topic[128];
            hand_off_wait(&h, topic, sizeof topic);
            lock_client(&p);
            int rc = mosquitto_publish(mosq, NULL, topic, (int)options->reply_size, p.reply, options->qos, false);
            unlock_client(&p);
            if (rc) die("publish (reply)", rc);
        }
    }
    for (;;) {
        int rc = mosquitto_loop(mosq, 1000, 1);
        if (rc != MOSQ_ERR_SUCCESS) break;  /* the requester's end: the parent kills us */
        acknowledge_reads(mosq, options);
    }
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int roundtrip(const struct options *options) {
    char request_topic[96];
    snprintf(request_topic, sizeof request_topic, "baseline/%d/request", (int)getpid());
    int ready[2];
    if (pipe(ready)) { perror("pipe"); return 1; }
    pid_t child = fork();
    if (child < 0) { perror("fork"); return 1; }
    if (child == 0) {
        mosquitto_lib_init();
        run_responder(options, request_topic, ready[1]);
        _exit(0);
    }

    struct peer p = { .options = options };
    struct mosquitto *mosq = new_client("baseline-requester", options, &p);
    mosquitto_connect_callback_set(mosq, peer_on_connect);
    mosquitto_subscribe_callback_set(mosq, peer_on_subscribe);
    mosquitto_message_callback_set(mosq, requester_on_message);
    connect_and_wait(mosq, &p, "connect (requester)");
    read_byte(ready[0]);

    char reply_topic[128];
    snprintf(reply_topic, sizeof reply_topic, "baseline/%d/reply", (int)getpid());
    char extra_topic[96];
    snprintf(extra_topic, sizeof extra_topic, "baseline/%d/extra", (int)getpid());
    if (!options->subscribe_per_request) subscribe_and_wait(mosq, &p, reply_topic);
    struct hand_off h;
    if (options->hand_off) hand_off_start(&h, mosq, &p);

    long total = options->warmup + options->rounds;
    double *samples = calloc((size_t)options->rounds, sizeof(double));
    char *request = malloc((size_t)options->request_size + 128);
    /* With --blocks, the measured rounds come in blocks, each started by a line on stdin. */
    long block_size = options->blocks > 0 ? (options->rounds + options->blocks - 1) / options->blocks : 0;
    long measured = 0;
    long block_start = 0; /* the first sample of the current block */
    for (long round = 0; round < total; round++) {
        if (block_size > 0 && round >= options->warmup && (round - options->warmup) % block_size == 0) {
            if (round == options->warmup) {
                printf("warm\n");
                fflush(stdout);
            }
            char line[64];
            if (!fgets(line, sizeof line, stdin)) break;
            block_start = measured;
        }
        double start = now_seconds();
        if (options->subscribe_per_request) {
            snprintf(reply_topic, sizeof reply_topic, "baseline/%d/reply/%ld", (int)getpid(), round);
            if (options->pipelined) {
                lock_client(&p);
                int rc = mosquitto_subscribe(mosq, NULL, reply_topic, options->qos);
                unlock_client(&p);
                if (rc) die("subscribe", rc);
            } else {
                subscribe_and_wait(mosq, &p, reply_topic);
            }
        }
        int header = snprintf(request, 128, "%s\n", reply_topic);
        long length = options->request_size > header ? options->request_size : header;
        memset(request + header, 'x', (size_t)(length - header));
        p.replied = false;
        lock_client(&p);
        int rc = mosquitto_publish(mosq, NULL, request_topic, (int)length, request, options->qos, false);
        for (int k = 0; rc == MOSQ_ERR_SUCCESS && k < options->extra; k++) {
            rc = mosquitto_publish(mosq, NULL, extra_topic, (int)length, request, options->qos, false);
        }
        unlock_client(&p);
        if (rc) die("publish (request)", rc);
        if (options->hand_off) hand_off_wait(&h, NULL, 0);
        else wait_for_reply(mosq, &p.replied, options);
        double end = now_seconds();
        if (options->subscribe_per_request) {
            lock_client(&p);
            rc = mosquitto_unsubscribe(mosq, NULL, reply_topic);
            unlock_client(&p);
            if (rc) die("unsubscribe", rc);
        }
        if (round >= options->warmup) {
            samples[measured++] = (end - start) * 1e6;
            if (block_size > 0 && (measured - block_start == block_size || round == total - 1)) {
                printf("block");
                for (long i = block_start; i < measured; i++) {
                    printf("%s%.1f", i == block_start ? " samples_us=" : ",", samples[i]);
                }
                printf("\n");
                fflush(stdout);
            }
        }
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    if (options->hand_off) {
        h.stop = true;
        pthread_join(h.network, NULL);
    }
    mosquitto_disconnect(mosq);
    mosquitto_destroy(mosq);

    long n = measured;
    if (n == 0) { fprintf(stderr, "mqtt-baseline: no round measured\n"); return 1; }
    double sum = 0;
    for (long i = 0; i < n; i++) sum += samples[i];
    qsort(samples, (size_t)n, sizeof(double), compare_doubles);
    printf("rounds=%ld p50_us=%.1f p90_us=%.1f p99_us=%.1f mean_us=%.1f\n", n, samples[n / 2], samples[n * 9 / 10],
           samples[n * 99 / 100], sum / (double)n);
    free(samples);
    free(request);
    return 0;
}


/* ------------------------------------------------------------------------------------------------ */
/* Idle memory and many clients */

static long resident_kb(void) {
    FILE *file = fopen("/proc/self/status", "r");
    if (!file) return -1;
    char line[256];
    long value = -1;
    while (fgets(line, sizeof line, file)) {
        if (!strncmp(line, "VmRSS:", 6)) { value = atol(line + 6); break; }
    }
    fclose(file);
    return value;
}

static int idle(const struct options *options) {
    struct peer p = { .options = options };
    struct mosquitto *mosq = new_client("baseline-idle", options, &p);
    mosquitto_connect_callback_set(mosq, peer_on_connect);
    mosquitto_subscribe_callback_set(mosq, peer_on_subscribe);
    connect_and_wait(mosq, &p, "connect (idle)");
    subscribe_and_wait(mosq, &p, "baseline/idle/+");
    double until = now_seconds() + 1.0;
    while (now_seconds() < until) mosquitto_loop(mosq, 100, 1);
    printf("rss_kb=%ld\n", resident_kb());
    mosquitto_disconnect(mosq);
    mosquitto_destroy(mosq);
    return 0;
}

struct crowd {
    const struct options *options;
    long connected;
    long subscribed;
    long replies;
    char request_topic[96];
    char reply_topic[96];
    char *reply;
};

struct member {
    struct crowd *crowd;
    long index;
};

static void many_on_connect(struct mosquitto *mosq, void *context, int rc) {
    struct member *m = context;
    if (rc != 0) { fprintf(stderr, "mqtt-baseline: CONNACK %d\n", rc); exit(1); }
    m->crowd->connected++;
    const char *topic = m->index == 0 ? m->crowd->reply_topic : m->crowd->request_topic;
    if ((rc = mosquitto_subscribe(mosq, NULL, topic, 0))) die("subscribe", rc);
    if (m->index == 0 && (rc = mosquitto_subscribe(mosq, NULL, m->crowd->request_topic, 0))) die("subscribe", rc);
}

static void many_on_subscribe(struct mosquitto *mosq, void *context, int mid, int count, const int *granted) {
    (void)mosq; (void)mid; (void)count; (void)granted;
    struct member *m = context;
    m->crowd->subscribed++;
}

static void many_on_message(struct mosquitto *mosq, void *context, const struct mosquitto_message *message) {
    struct member *m = context;
    if (!strcmp(message->topic, m->crowd->reply_topic)) {
        m->crowd->replies++;
        return;
    }
    int rc = mosquitto_publish(mosq, NULL, m->crowd->reply_topic, (int)m->crowd->options->reply_size, m->crowd->reply, 0, false);
    (void)rc;
}

/* Whether fd is an unnamed local stream socket, as each end of a socketpair is. */
static bool is_unnamed_unix_stream(int fd) {
    int type = 0;
    socklen_t length = sizeof type;
    if (fd <= 2 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) return false;
    struct sockaddr_un address;
    length = sizeof address;
    return getsockname(fd, (struct sockaddr *)&address, &length) == 0 && address.sun_family == AF_UNIX
        && length == sizeof(sa_family_t);
}

/* Closes the socket pair libmosquitto opens in mosquitto_new and in every connect to wake the select()
 * of mosquitto_loop, which `many` never runs: it costs two descriptors a client (30,000 for 10,000
 * clients). libmosquitto 1.4 to 2.0 keep it right after the socket at the start of struct mosquitto;
 * it is closed only when both ends are what they must be. The agent does the same (SocketPair.swift). */
static void close_socket_pair(struct mosquitto *mosq) {
    int major = 0, minor = 0, revision = 0;
    mosquitto_lib_version(&major, &minor, &revision);
    if (!((major == 2 && minor == 0) || (major == 1 && minor >= 4))) return;
    int *fields = (int *)mosq;
    if (fields[0] != mosquitto_socket(mosq) || fields[1] == fields[2]) return;
    if (!is_unnamed_unix_stream(fields[1]) || !is_unnamed_unix_stream(fields[2])) return;
    close(fields[1]);
    close(fields[2]);
    fields[1] = fields[2] = -1;
}

/* One pass of poll() over every client: reads, writes and keep-alive. */
static void drive(struct mosquitto **clients, struct pollfd *fds, long n, int timeout_ms) {
    for (long i = 0; i < n; i++) {
        fds[i].fd = mosquitto_socket(clients[i]);
        fds[i].events = POLLIN | (mosquitto_want_write(clients[i]) ? POLLOUT : 0);
        fds[i].revents = 0;
    }
    if (poll(fds, (nfds_t)n, timeout_ms) < 0 && errno != EINTR) { perror("poll"); exit(1); }
    for (long i = 0; i < n; i++) {
        if (fds[i].revents & (POLLIN | POLLERR | POLLHUP)) {
            /* One packet per call: read until the socket is empty. */
            for (int packets = 0; packets < 1024; packets++) {
                errno = 0;
                if (mosquitto_loop_read(clients[i], 1) != MOSQ_ERR_SUCCESS || errno == EAGAIN) break;
            }
        }
        if (mosquitto_want_write(clients[i])) mosquitto_loop_write(clients[i], 1);
    }
}

static int many(const struct options *options) {
    long n = options->clients;
    /* Each client holds its socket (its socket pair is closed) and, while connecting, a socket pair. */
    rlim_t needed = (rlim_t)(n + 256);
    struct rlimit limit = { 0, 0 };
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur < needed) {
        fprintf(stderr, "mqtt-baseline: %ld clients need %lu file descriptors, but RLIMIT_NOFILE allows %lu; "
                "raise it (ulimit -Hn %lu, as root)\n", n, (unsigned long)needed, (unsigned long)limit.rlim_cur,
                (unsigned long)needed);
        return 1;
    }
    struct crowd crowd = { .options = options, .reply = malloc((size_t)options->reply_size) };
    memset(crowd.reply, 'y', (size_t)options->reply_size);
    snprintf(crowd.request_topic, sizeof crowd.request_topic, "baseline/%d/many/request", (int)getpid());
    snprintf(crowd.reply_topic, sizeof crowd.reply_topic, "baseline/%d/many/reply", (int)getpid());
    struct mosquitto **clients = calloc((size_t)n, sizeof *clients);
    struct member *members = calloc((size_t)n, sizeof *members);
    struct pollfd *fds = calloc((size_t)n, sizeof *fds);
    long before = resident_kb();
    double start = now_seconds();
    for (long i = 0; i < n; i++) {
        char id[64];
        snprintf(id, sizeof id, "baseline-many-%d-%ld", (int)getpid(), i);
        members[i] = (struct member){ .crowd = &crowd, .index = i };
        clients[i] = mosquitto_new(id, true, &members[i]);
        if (!clients[i]) die("mosquitto_new", MOSQ_ERR_NOMEM);
        close_socket_pair(clients[i]);
        mosquitto_connect_callback_set(clients[i], many_on_connect);
        mosquitto_subscribe_callback_set(clients[i], many_on_subscribe);
        mosquitto_message_callback_set(clients[i], many_on_message);
        int rc = mosquitto_connect(clients[i], options->host, options->port, 60);
        if (rc) die("connect (many)", rc);
        close_socket_pair(clients[i]);
    }
    long expected_subscriptions = n + 1;
    while (crowd.subscribed < expected_subscriptions) drive(clients, fds, n, 100);
    double joined = now_seconds();
    long after = resident_kb();

    char request[32] = "request";
    double asked = now_seconds();
    int rc = mosquitto_publish(clients[0], NULL, crowd.request_topic, (int)sizeof request, request, 0, false);
    if (rc) die("publish (request)", rc);
    double deadline = asked + 30;
    while (crowd.replies < n && now_seconds() < deadline) drive(clients, fds, n, 100);
    double answered = now_seconds();
    printf("clients=%ld join_s=%.6f fanin_s=%.6f replies=%ld rss_per_client_kb=%.1f\n", n, joined - start,
           answered - asked, crowd.replies, (double)(after - before) / (double)n);
    for (long i = 0; i < n; i++) {
        mosquitto_disconnect(clients[i]);
        mosquitto_destroy(clients[i]);
    }
    free(clients);
    free(members);
    free(fds);
    free(crowd.reply);
    return crowd.replies == n ? 0 : 2;
}

/* ------------------------------------------------------------------------------------------------ */

static void usage(void) {
    fprintf(stderr,
            "usage: mqtt-baseline throughput --port P [--host H] --count N --size S [--qos Q] [--extra K] [--hand-off]\n"
            "       mqtt-baseline roundtrip --port P [--host H] --rounds N [--warmup W] --request-size A\n"
            "                               --reply-size B [--qos Q] [--subscribe-per-request [--pipelined]] [--nodelay]\n"
            "                               [--quickack] [--extra K] [--blocks N] [--busy-poll] [--hand-off]\n"
            "       mqtt-baseline idle --port P [--host H]\n"
            "       mqtt-baseline many --port P [--host H] --clients N [--reply-size B]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 2) usage();
    struct options options = { .host = "127.0.0.1", .port = 1883, .count = 100000, .size = 300, .rounds = 1000,
                               .warmup = 100, .request_size = 100, .reply_size = 300, .clients = 1000 };
    for (int i = 2; i < argc; i++) {
        const char *name = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(name, "--subscribe-per-request")) { options.subscribe_per_request = true; continue; }
        if (!strcmp(name, "--nodelay")) { options.nodelay = true; continue; }
        if (!strcmp(name, "--quickack")) { options.quickack = true; continue; }
        if (!strcmp(name, "--pipelined")) { options.pipelined = true; continue; }
        if (!strcmp(name, "--busy-poll")) { options.busy_poll = true; continue; }
        if (!strcmp(name, "--hand-off")) { options.hand_off = true; continue; }
        if (!value) usage();
        i++;
        if (!strcmp(name, "--host")) options.host = value;
        else if (!strcmp(name, "--port")) options.port = atoi(value);
        else if (!strcmp(name, "--count")) options.count = atol(value);
        else if (!strcmp(name, "--size")) options.size = atol(value);
        else if (!strcmp(name, "--qos")) options.qos = atoi(value);
        else if (!strcmp(name, "--extra")) options.extra = atoi(value);
        else if (!strcmp(name, "--rounds")) options.rounds = atol(value);
        else if (!strcmp(name, "--warmup")) options.warmup = atol(value);
        else if (!strcmp(name, "--request-size")) options.request_size = atol(value);
        else if (!strcmp(name, "--reply-size")) options.reply_size = atol(value);
        else if (!strcmp(name, "--clients")) options.clients = atol(value);
        else if (!strcmp(name, "--blocks")) options.blocks = atol(value);
        else usage();
    }
    if (options.count <= 0 || options.size <= 0 || options.rounds <= 0 || options.qos < 0 || options.qos > 1) usage();
    /* A hand-off requester cannot drive its socket while it waits for a SUBACK, nor poll for a reply. */
    if (options.hand_off && ((options.subscribe_per_request && !options.pipelined) || options.busy_poll)) usage();
    setvbuf(stdout, NULL, _IOLBF, 0);
    mosquitto_lib_init();
    int status = 2;
    if (!strcmp(argv[1], "throughput")) status = throughput(&options);
    else if (!strcmp(argv[1], "roundtrip")) status = roundtrip(&options);
    else if (!strcmp(argv[1], "idle")) status = idle(&options);
    else if (!strcmp(argv[1], "many")) status = many(&options);
    else usage();
    mosquitto_lib_cleanup();
    return status;
}
