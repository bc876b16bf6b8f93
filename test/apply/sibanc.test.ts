// A new route or test copied from its neighbour before the block's closers (branch sibanc): every
// line the update shows that the original has lies inside the copy, so the segment's anchors (or its
// edited-head anchor) stand the copy in for the neighbour, whose head and other lines are dropped.
// The rule tried on the branch (anchors inside a copy dropped, the file-ending segment started past
// the copied block, bare literal calls as siblings) fixed both cases below but broke 28bz js10
// (lossx7.test.ts) through its edited-line filter and was reverted; branch sibanc2 re-landed it with
// that filter limited to copies whose head's first literal is renamed, so the cases are plain tests.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { lines, mergedEverywhere } from './judged.js';

const ktHead = [
  'fun Route.appointmentRoutes(store: AppointmentStore) {',
  '    route("/appointments") {',
  '        get("/{id}") {',
  '            val id = call.parameters["id"]?.toIntOrNull()',
  '                ?: return@get call.respond(HttpStatusCode.BadRequest)',
  '            call.respond(store.find(id) ?: return@get call.respond(HttpStatusCode.NotFound))',
  '        }',
  '',
];
const confirm = [
  '        patch("/{id}/confirm") {',
  '            val id = call.parameters["id"]?.toIntOrNull()',
  '                ?: return@patch call.respond(HttpStatusCode.BadRequest)',
  '            val appt = store.confirm(id) ?: return@patch call.respond(HttpStatusCode.NotFound)',
  '            notifier.send(appt.patientId, "confirmed")',
  '            call.respond(HttpStatusCode.OK, appt)',
  '        }',
];
const cancel = [
  '        patch("/{id}/cancel") {',
  '            val id = call.parameters["id"]?.toIntOrNull()',
  '                ?: return@patch call.respond(HttpStatusCode.BadRequest)',
  '            val appt = store.cancel(id) ?: return@patch call.respond(HttpStatusCode.Conflict)',
  '            call.respond(HttpStatusCode.OK, appt)',
  '        }',
];
const ktTail = ['    }', '}'];

const phpHead = [
  '<?php',
  '',
  "Route::middleware('auth:sanctum')->group(function () {",
  "    Route::get('/orders/{order}', function (Request $request, Order $order) {",
  "        abort_unless($order->user_id === $request->user()->id, 403);",
  '        return $order;',
  '    });',
  '',
];
const ship = [
  "    Route::post('/orders/{order}/ship', function (Request $request, Order $order) {",
  "        abort_unless($order->user_id === $request->user()->id, 403);",
  "        $order->status = 'shipped';",
  '        $order->shipped_at = now();',
  '        $order->save();',
  '        return response()->json($order);',
  '    });',
];
const hold = [
  "    Route::post('/orders/{order}/hold', function (Request $request, Order $order) {",
  "        abort_unless($order->user_id === $request->user()->id, 403);",
  "        $order->status = 'on_hold';",
  '        $order->held_at = now();',
  '        $order->save();',
  '        return response()->json($order);',
  '    });',
];

describe('a new block copied from its neighbour before the closers (sibanc)', () => {
  it('a Ktor route under another path, showing half of the route above, goes in beside it in every mode', () => {
    const code = lines([...ktHead, ...confirm, ...ktTail]);
    const update = lines(['        // ... existing code ...', '', ...cancel, ...ktTail]);
    mergedEverywhere(code, update, lines([...ktHead, ...confirm, '', ...cancel, ...ktTail]));
  });

  it('a Laravel route closure whose shown lines all lie in the copy goes in beside the route it copies', () => {
    const code = lines([...phpHead, ...ship, '});']);
    const update = lines(['    // ... existing code ...', '', ...hold, '});']);
    mergedEverywhere(code, update, lines([...phpHead, ...ship, '', ...hold, '});']));
  });

  it('control: a Ktor route renamed with its whole body kept is that route edited in place', () => {
    const code = lines([...ktHead, ...confirm, ...ktTail]);
    const renamed = [confirm[0]!.replace('/confirm', '/accept'), ...confirm.slice(1)];
    const update = lines(['        // ... existing code ...', '', ...renamed, ...ktTail]);
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    expect(r.content).toBe(lines([...ktHead, ...renamed, ...ktTail]));
  });
});
