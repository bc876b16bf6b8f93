// The opaque handles JS holds (Napi::External) and a session's event delivery channel.
#pragma once
#include <napi.h>

#include <memory>
#include <mutex>

#include "binding/model_registry.h"

namespace infer::binding {

struct model_handle {
  std::shared_ptr<loaded_model> e;
};

// One JS environment's delivery channel. The sink lives as long as sequences reference it; the
// TSFN is released by close() (closeSession) and never called after close() or abandon().
struct session_state : event_sink, std::enable_shared_from_this<session_state> {
  // Weak: sequences (owned by the engine) hold their sink, so a strong reference here could make
  // the scheduler thread drop the last reference to its own engine.
  std::weak_ptr<loaded_model> e;
  Napi::ThreadSafeFunction tsfn;
  std::mutex mu;
  bool closed = false;
  int64_t active = 0;  // JS thread only: submitted and not yet finished
  void deliver(std::vector<token_event>&& evs) override;
  void close() {
    std::lock_guard<std::mutex> lk(mu);
    if (closed) return;
    closed = true;
    tsfn.Release();
  }
  // The handle was collected without close(): stop deliveries but leave the TSFN to Node. At
  // environment teardown the TSFN may already be half torn down when this runs, and releasing it
  // then aborts the process (seen at exit with two models loaded and not unloaded).
  void abandon() {
    std::lock_guard<std::mutex> lk(mu);
    closed = true;
  }
};

struct session_handle {
  std::shared_ptr<session_state> s;
};

}  // namespace infer::binding
