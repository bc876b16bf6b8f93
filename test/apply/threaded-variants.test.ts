// Branch usesx2: a new variant threaded through several places. Lines copied for the new name and
// written together from places apart (`given Decoder[Pause]` over `given Encoder[Pause]`, copied from
// lines three apart) are no rename carried through, and a name changed in several forms
// (`OrderShipped`, `handle_order_shipped`, `"orders.shipped"`) is one change (new-name-evidence.ts
// copiedApart, renamedForms); the body of a new `case` under a new inner head is the new case's
// (foreign-head.ts newSiblingOwner). The Scala, C and Rust cases fail on main 5a46f2e6 (the old line
// at the hunk's edge read as edited and put back at the wrong place, or the new case's body matched
// into its neighbour's). The controls: callers switched to a new helper whose import the update shows
// right under the old one stay switched (one caller or two): a copy beside its original is no
// evidence of a new name by itself.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('usesx2: a new variant threaded through several places', () => {
  it("scala: a new command, its codecs copied together after a marker, arms beside the old ones", () => {
    mergedEverywhere(
      lines(["package shop.cmd","","sealed trait Cmd","final case class Start(id: String) extends Cmd","final case class Stop(id: String) extends Cmd","","object Cmd:","  given Decoder[Start] = deriveDecoder","  given Decoder[Stop] = deriveDecoder","  given Encoder[Start] = deriveEncoder","  given Encoder[Stop] = deriveEncoder","","object Runner:","  def run(c: Cmd): Int = c match","    case s: Start => start(s.id)","    case s: Stop => stop(s.id)","","  def name(c: Cmd): String = c match","    case _: Start => \"start\"","    case _: Stop => \"stop\""]),
      lines(["final case class Stop(id: String) extends Cmd","final case class Pause(id: String, seconds: Int) extends Cmd","","object Cmd:","  // ... existing givens ...","  given Decoder[Pause] = deriveDecoder","  given Encoder[Pause] = deriveEncoder","","object Runner:","  def run(c: Cmd): Int = c match","    // ...","    case s: Stop => stop(s.id)","    case p: Pause => pause(p.id, p.seconds)","","  def name(c: Cmd): String = c match","    // ...","    case _: Stop => \"stop\"","    case _: Pause => \"pause\""]),
      lines(["package shop.cmd","","sealed trait Cmd","final case class Start(id: String) extends Cmd","final case class Stop(id: String) extends Cmd","final case class Pause(id: String, seconds: Int) extends Cmd","","object Cmd:","  given Decoder[Start] = deriveDecoder","  given Decoder[Stop] = deriveDecoder","  given Encoder[Start] = deriveEncoder","  given Encoder[Stop] = deriveEncoder","  given Decoder[Pause] = deriveDecoder","  given Encoder[Pause] = deriveEncoder","","object Runner:","  def run(c: Cmd): Int = c match","    case s: Start => start(s.id)","    case s: Stop => stop(s.id)","    case p: Pause => pause(p.id, p.seconds)","","  def name(c: Cmd): String = c match","    case _: Start => \"start\"","    case _: Stop => \"stop\"","    case _: Pause => \"pause\""]),
      "add a Pause command",
    );
  });

  it("c: a new opcode in the enum and a case among arms that end alike", () => {
    mergedEverywhere(
      lines(["enum op {","\tOP_ADD,","\tOP_SUB,","\tOP_HALT,","};","","static const char *op_names[] = { \"add\", \"sub\", \"halt\" };","","int step(struct vm *vm, enum op op)","{","\tswitch (op) {","\tcase OP_ADD:","\t\tif (vm_pop2(vm, &a, &b) != 0) {","\t\t\tvm->err = \"stack underflow\";","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a + b);","\tcase OP_SUB:","\t\tif (vm_pop2(vm, &a, &b) != 0) {","\t\t\tvm->err = \"stack underflow\";","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a - b);","\tcase OP_HALT:","\t\tvm->halted = 1;","\t\treturn 0;","\t}","\treturn -1;","}"]),
      lines(["enum op {","\tOP_ADD,","\tOP_SUB,","\tOP_MUL,","\tOP_HALT,","};","","static const char *op_names[] = { \"add\", \"sub\", \"mul\", \"halt\" };","","/* ... */","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a - b);","\tcase OP_MUL:","\t\tvm_trace(vm, OP_MUL);","\t\tif (vm_pop2(vm, &a, &b) != 0) {","\t\t\tvm->err = \"stack underflow\";","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a * b);","\tcase OP_HALT:","/* ... */"]),
      lines(["enum op {","\tOP_ADD,","\tOP_SUB,","\tOP_MUL,","\tOP_HALT,","};","","static const char *op_names[] = { \"add\", \"sub\", \"mul\", \"halt\" };","","int step(struct vm *vm, enum op op)","{","\tswitch (op) {","\tcase OP_ADD:","\t\tif (vm_pop2(vm, &a, &b) != 0) {","\t\t\tvm->err = \"stack underflow\";","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a + b);","\tcase OP_SUB:","\t\tif (vm_pop2(vm, &a, &b) != 0) {","\t\t\tvm->err = \"stack underflow\";","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a - b);","\tcase OP_MUL:","\t\tvm_trace(vm, OP_MUL);","\t\tif (vm_pop2(vm, &a, &b) != 0) {","\t\t\tvm->err = \"stack underflow\";","\t\t\treturn -1;","\t\t}","\t\treturn vm_push(vm, a * b);","\tcase OP_HALT:","\t\tvm->halted = 1;","\t\treturn 0;","\t}","\treturn -1;","}"]),
      "add a MUL opcode",
    );
  });

  it("rust: a new event, its bus registrations copied together with the name in several forms", () => {
    mergedEverywhere(
      lines(["pub enum Event {","    OrderPlaced(Order),","    OrderShipped(Shipment),","}","","pub fn register(bus: &mut Bus) {","    bus.on::<OrderPlaced>(handle_order_placed);","    bus.on::<OrderShipped>(handle_order_shipped);","    bus.topic::<OrderPlaced>(Topic::new(\"orders.placed\"));","    bus.topic::<OrderShipped>(Topic::new(\"orders.shipped\"));","","    bus.start();","}"]),
      lines(["pub enum Event {","    OrderPlaced(Order),","    OrderShipped(Shipment),","    OrderCancelled(String),","}","","pub fn register(bus: &mut Bus) {","    // ... existing registrations ...","    bus.on::<OrderCancelled>(handle_order_cancelled);","    bus.topic::<OrderCancelled>(Topic::new(\"orders.cancelled\"));","","    bus.start();","}"]),
      lines(["pub enum Event {","    OrderPlaced(Order),","    OrderShipped(Shipment),","    OrderCancelled(String),","}","","pub fn register(bus: &mut Bus) {","    bus.on::<OrderPlaced>(handle_order_placed);","    bus.on::<OrderShipped>(handle_order_shipped);","    bus.topic::<OrderPlaced>(Topic::new(\"orders.placed\"));","    bus.topic::<OrderShipped>(Topic::new(\"orders.shipped\"));","    bus.on::<OrderCancelled>(handle_order_cancelled);","    bus.topic::<OrderCancelled>(Topic::new(\"orders.cancelled\"));","","    bus.start();","}"]),
      "add an OrderCancelled event",
    );
  });

  it("lua: callers switched to a new helper whose require stands under the old one (control)", () => {
    mergedEverywhere(
      lines(["local cache = require(\"cache\")","local store = require(\"store\")","","local M = {}","","function M.load(id)","  local row = cache.get(id)","  return row","end","","function M.save(id, row)","  cache.put(id, row)","  return true","end","","return M"]),
      lines(["local cache = require(\"cache\")","local lru = require(\"lru\")","local store = require(\"store\")","","-- ... existing code ...","function M.load(id)","  local row = lru.get(id)","  -- ... existing code ...","function M.save(id, row)","  lru.put(id, row)","  -- ... existing code ..."]),
      lines(["local cache = require(\"cache\")","local lru = require(\"lru\")","local store = require(\"store\")","","local M = {}","","function M.load(id)","  local row = lru.get(id)","  return row","end","","function M.save(id, row)","  lru.put(id, row)","  return true","end","","return M"]),
      "use the lru cache",
    );
  });

  it("lua: one caller switched to a new helper whose require stands under the old one (control)", () => {
    mergedEverywhere(
      lines(["local cache = require(\"cache\")","local store = require(\"store\")","","local M = {}","","function M.load(id)","  local row = cache.get(id)","  return row","end","","function M.save(id, row)","  cache.put(id, row)","  return true","end","","return M"]),
      lines(["local cache = require(\"cache\")","local lru = require(\"lru\")","local store = require(\"store\")","","-- ... existing code ...","function M.load(id)","  local row = lru.get(id)","  -- ... existing code ..."]),
      lines(["local cache = require(\"cache\")","local lru = require(\"lru\")","local store = require(\"store\")","","local M = {}","","function M.load(id)","  local row = lru.get(id)","  return row","end","","function M.save(id, row)","  cache.put(id, row)","  return true","end","","return M"]),
      "load through the lru cache",
    );
  });
});
