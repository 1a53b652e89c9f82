// locus/dataflow.hpp — task graphs: events, latches, datablocks and data-driven tasks.
#pragma once

#include "locus/dataflow/datablock.hpp"
#include "locus/dataflow/event.hpp"
#include "locus/dataflow/flow_scheduler.hpp"
#include "locus/dataflow/graph.hpp"
