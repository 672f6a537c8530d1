// The one libFuzzer entry point the fuzz targets call: they link libFuzzer through
// `-sanitize=fuzzer` and start it from their own `main` (SwiftPM names every executable's entry
// point itself, so libFuzzer's `main` cannot be used).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
