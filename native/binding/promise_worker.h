// Base of the binding's async calls: run() on a libuv worker thread, result() back on the JS
// thread; engine errors reject the promise with the call's name and ERR_ENGINE_<STATUS> code.
#pragma once
#include <napi.h>

#include <string>

#include "binding/args.h"

namespace infer::binding {

class promise_worker : public Napi::AsyncWorker {
 public:
  promise_worker(Napi::Env env, const char* call) : Napi::AsyncWorker(env, call), call_(call), deferred_(env) {}
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  virtual void run() = 0;
  virtual Napi::Value result(Napi::Env env) = 0;
  void Execute() override {
    try {
      run();
    } catch (const engine_error& e) {
      status_ = e.status;
      msg_ = e.what();
    } catch (const std::exception& e) {
      status_ = engine_status::internal;
      msg_ = e.what();
    } catch (...) {
      status_ = engine_status::internal;
      msg_ = "unknown failure";
    }
  }
  void OnOK() override {
    Napi::Env env = Env();
    if (status_ != engine_status::ok) {
      deferred_.Reject(make_error(env, call_, status_, msg_).Value());
      return;
    }
    try {
      deferred_.Resolve(result(env));
    } catch (const Napi::Error& e) {
      deferred_.Reject(e.Value());
    }
  }

  std::string call_;
  Napi::Promise::Deferred deferred_;
  engine_status status_ = engine_status::ok;
  std::string msg_;
};

// Queues the worker and returns its promise (the worker deletes itself when done).
inline Napi::Promise queue(promise_worker* w) {
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

}  // namespace infer::binding
