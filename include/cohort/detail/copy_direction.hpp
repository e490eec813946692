// Which way a synchronous device-memory copy goes, and the public function
// that asked for it (the name a backend's error message gives).
#pragma once

namespace cohort::detail {

enum class copy_direction { to_device, to_host, on_device };

constexpr const char* copy_function(copy_direction d) {
  switch (d) {
    case copy_direction::to_device:
      return "copy_to_device";
    case copy_direction::to_host:
      return "copy_to_host";
    case copy_direction::on_device:
      return "copy_on_device";
  }
  return "";
}

}  // namespace cohort::detail
