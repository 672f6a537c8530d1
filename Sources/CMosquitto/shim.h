#ifndef SWIFT_COATY_CMOSQUITTO_SHIM_H
#define SWIFT_COATY_CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#endif
