// The groups, for the backend's collectives that still include them here;
// they are defined once in include/cohort/groups/. Goes when the collectives
// are written once over their own primitives.
#pragma once

#include "cohort/groups/groups.hpp"
