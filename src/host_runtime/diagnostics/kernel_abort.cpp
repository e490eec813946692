#include "diagnostics/kernel_abort.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <exception>
#include <optional>
#include <string>

#include "diagnostics/diagnostics.hpp"
#include "diagnostics/source_lines.hpp"
#include "diagnostics/symbol_names.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "scheduling/worker.hpp"

namespace cohort::detail::host {

namespace {

struct sigaction previous_abort_action;

// What the aborting thread's frames say: the first function of the kernel's
// module below the C and C++ libraries and cohort's handler (the kernel, or
// a function it called).
struct abort_origin {
  std::string caller;
  std::optional<std::string> line;  // of the call that aborted, where there is debug information
};

abort_origin origin_of_abort(const void* kernel) {
  void* frames[48];
  const int count = backtrace(frames, 48);
  Dl_info kernel_module{};
  dladdr(kernel, &kernel_module);
  abort_origin o;
  bool below_handler = false;  // past the handler's own frames (the runtime's, in the kernel's module)
  for (int i = 1; i < count; ++i) {
    // A return address: the call is the byte before it.
    const void* call = call_before(frames[i]);
    Dl_info module{};
    const bool kernels_module = dladdr(call, &module) && module.dli_fbase == kernel_module.dli_fbase;
    below_handler = below_handler || !kernels_module;  // the signal's frame is the C library's
    if (!below_handler || !kernels_module) continue;
    const auto name = function_containing(call);
    // clang's landing pad for a noexcept function calls std::terminate through a helper of its
    // own, emitted into the caller's module: the caller is the next frame.
    if (!name || *name == "__clang_call_terminate") continue;
    // The runtime's frames (its thread loop: "void cohort::detail::host::run_threads<...>(...)")
    // lie below the kernel's: a kernel whose abort was a tail call left no frame of its own.
    if (name->substr(0, name->find('(')).find("cohort::detail::host::") != std::string::npos) break;
    // Code the compiler moved out of line (a cold path) is its function's.
    o.caller = name->substr(0, name->find(" [clone "));
    o.line = source_line_at(call);
    break;
  }
  return o;
}

std::string abort_report(const void* kernel_address, const std::string& where) {
  abort_origin o = origin_of_abort(kernel_address);
  if (o.caller == kernel_name(kernel_address)) o.caller.clear();
  // std::terminate() for an exception: the C++ runtime has caught it (a
  // noexcept function left by one) or is unwinding for it (a destructor
  // that threw meanwhile). Its own frames carry no names to tell by.
  const bool terminate = std::current_exception() != nullptr || std::uncaught_exceptions() > 0;
  std::string s = "cohort: ";
  s += terminate ? "std::terminate() called " : "abort() called ";
  s += where;
  const std::string at_line = o.line ? ", at " + *o.line : std::string();
  if (!o.caller.empty())
    s += " (from `" + o.caller + "`" + at_line + ")";
  else if (o.line)
    s += " (at " + *o.line + ")";
  if (terminate) s += ": an exception left a noexcept function, or a destructor threw while an exception was in flight";
  s += "; the process ends with SIGABRT\n";
  return s;
}

// The report's progress: kernel threads of several blocks may abort at once
// (each block on its own worker), and each thread's handler runs on its own.
enum class report_state : int { none, writing, written };
std::atomic<report_state> report{report_state::none};
std::atomic<pid_t> report_writer{0};  // an abort while wording it must not wait for itself

// Another thread is wording the report: this one waits for it, since the
// signal's default action would end the process before it is written. The
// writer's alarm bounds the wait.
void wait_for_the_report() {
  const timespec pause{0, 1000 * 1000};
  const pid_t self = gettid();
  while (report.load() == report_state::writing && report_writer.load() != self) nanosleep(&pause, nullptr);
}

void on_abort(int sig, siginfo_t* info, void* context) {
  auto nobody = report_state::none;
  if (in_kernel_thread() && report.compare_exchange_strong(nobody, report_state::writing)) {
    // Wording the report allocates; an abort from inside malloc (its own
    // corruption checks) may hold its lock. Should the report hang on it,
    // the alarm ends the process all the same.
    alarm(10);
    report_writer.store(gettid());
    const block_runtime& rt = current_runtime();
    const std::string text = abort_report(rt.launch->entry->kernel, position(*rt.launch, rt, *current_thread));
    [[maybe_unused]] const auto written = write(2, text.data(), text.size());
    report.store(report_state::written);
  }
  wait_for_the_report();
  if (previous_abort_action.sa_flags & SA_SIGINFO) return previous_abort_action.sa_sigaction(sig, info, context);
  if (previous_abort_action.sa_handler != SIG_DFL && previous_abort_action.sa_handler != SIG_IGN)
    return previous_abort_action.sa_handler(sig);
  // Delivered once this handler returns (the signal is blocked while it runs).
  signal(SIGABRT, SIG_DFL);
  raise(SIGABRT);
}

}  // namespace

void install_abort_report() {
  // backtrace() loads the unwinder on its first call, which allocates: done
  // here, not in the handler, which may run for an abort from inside malloc.
  void* first[1];
  backtrace(first, 1);
  struct sigaction action{};
  action.sa_sigaction = &on_abort;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previous_abort_action);
}

}  // namespace cohort::detail::host
