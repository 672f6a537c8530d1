#ifndef SWIFT_COATY_CMOSQUITTO_SHIM_H
#define SWIFT_COATY_CMOSQUITTO_SHIM_H

#include <mosquitto.h>

/* The event loop in Sources/Agent/Mosquitto drives libmosquitto with epoll and an eventfd, and the
   agent draws its correlation ids with getrandom; Glibc's Swift module does not export these headers. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>

#endif
