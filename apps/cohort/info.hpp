// `cohort info`: the backends built in, the devices and their properties.
#pragma once

namespace cohort_cli {

int run_info();

}  // namespace cohort_cli
