// The only C++ in Benchbook: a pipe to gnuplot through gnuplot-iostream.
// Swift decides what is plotted; this file only streams it.
#include "CGnuplotBridge.h"

#include <csignal>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <gnuplot-iostream.h>

namespace {

void copy_message(const std::string &text, char *message, size_t capacity) {
  if (message == nullptr || capacity == 0) return;
  size_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
  std::memcpy(message, text.data(), n);
  message[n] = '\0';
}

}  // namespace

extern "C" int bb_gnuplot_run(const char *command, const char *script,
                              const bb_data_block *blocks, size_t block_count,
                              char *message, size_t message_capacity) {
  // A gnuplot that dies early must not kill the caller with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    Gnuplot gp{std::string(command)};
    gp << script << "\n";
    for (size_t b = 0; b < block_count; ++b) {
      const bb_data_block &block = blocks[b];
      std::vector<std::vector<double>> rows(block.rows);
      for (size_t r = 0; r < block.rows; ++r) {
        rows[r].assign(block.values + r * block.columns,
                       block.values + (r + 1) * block.columns);
      }
      gp.send1d(rows);
    }
    gp << "exit\n";
    gp.flush();
    if (!gp.good()) {
      copy_message("writing to gnuplot failed", message, message_capacity);
      return -1;
    }
  } catch (const std::exception &error) {
    copy_message(error.what(), message, message_capacity);
    return -1;
  } catch (...) {
    copy_message("unknown error while streaming to gnuplot", message, message_capacity);
    return -1;
  }
  copy_message("", message, message_capacity);
  return 0;
}
