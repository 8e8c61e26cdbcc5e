#ifndef CGNUPLOT_BRIDGE_H
#define CGNUPLOT_BRIDGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One table of numbers, row-major, streamed to gnuplot as inline data (`'-'`).
typedef struct {
  const double *values;
  size_t rows;
  size_t columns;
} bb_data_block;

/// Runs `command` (a gnuplot invocation whose stderr the caller may redirect),
/// writes `script`, then streams each block as inline data terminated by `e`,
/// in order, and waits for gnuplot to exit.
///
/// Returns 0 on success, or -1 when the pipe could not be opened or written; a
/// description of the failure is copied into `message` (NUL-terminated).
int bb_gnuplot_run(const char *command, const char *script,
                   const bb_data_block *blocks, size_t block_count,
                   char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif
