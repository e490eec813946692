// A kernel launch checked now and run later: what a launch into a stream
// with work ahead of it becomes. The configuration is checked and the
// arguments are converted to the kernel's parameter types at the call (CUDA
// refuses a bad launch there and copies the arguments there: a program may
// change the variables it passed as soon as the launch returns); the grid
// runs when the stream's turn comes, on the host backend's launch.
#pragma once

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cohort/cohort.hpp>

namespace cohort::compat {

class deferred_launch {
 public:
  virtual ~deferred_launch() = default;
  // Runs the grid to its end; throws the cohort::error a block raised.
  virtual void run() = 0;
};

namespace detail {

template <class... P>
class deferred_kernel final : public deferred_launch {
 public:
  template <class... A>
  deferred_kernel(void (*kernel)(P...), const cohort::launch_config& config, bool cooperative, A&&... args)
      : payload_{kernel, {std::forward<A>(args)...}}, config_(config), cooperative_(cooperative) {}

  void run() override {
    namespace host = cohort::detail::host;
    // The loops engine's runner too (as launch_with gives it), so that a launch that waited its stream's
    // turn runs on the engine an immediate one would.
    void (*const run_loops)(const void*) = host::any_passed_by_address<P...> ? nullptr : &host::run_loops<P...>;
    host::launch_kernel(host::kernel_entry{&host::run_dynamic<P...>, &payload_,
                                           cohort::detail::kernel_address(payload_.kernel), run_loops},
                        config_, cooperative_);
  }

 private:
  cohort::detail::host::kernel_payload<P...> payload_;
  cohort::launch_config config_;
  bool cooperative_;
};

}  // namespace detail

// The checks cohort::detail::checked_launch makes, with the launch kept for later.
template <class... P, class... A>
std::unique_ptr<deferred_launch> defer_launch(void (*kernel)(P...), const cohort::launch_config& config,
                                              bool cooperative, const cohort::detail::remedy_api& api, A&&... args) {
  static_cast<void>(cohort::detail::arguments_fit<void(P...), void(A && ...)>::value);
  cohort::detail::check_launch(cohort::detail::kernel_address(kernel), config, cooperative, api);
  return std::make_unique<detail::deferred_kernel<P...>>(kernel, config, cooperative, std::forward<A>(args)...);
}

}  // namespace cohort::compat
