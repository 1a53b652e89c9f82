// locus/locus.hpp — umbrella header: everything a user of locus includes.
#pragma once

#include "locus/algorithm/join.hpp"
#include "locus/algorithm/parallel_for.hpp"
#include "locus/algorithm/parallel_reduce.hpp"
#include "locus/cab.hpp"
#include "locus/config.hpp"
#include "locus/data.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/runtime.hpp"
#include "locus/spawn_callable.hpp"
#include "locus/stats.hpp"
#include "locus/task.hpp"
#include "locus/topology.hpp"
