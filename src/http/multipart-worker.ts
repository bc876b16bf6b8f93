// piscina worker: reads a spooled multipart body (body-spool.ts) into its form (form-scanner.ts),
// so the boundary search and the field decoding of a large upload run off the event loop.
import { asFormError, FormError, scanFormFileSync, type FormLimits, type ScannedForm } from './form-scanner.js';

export interface FormTask {
  path: string;
  boundary: string;
  limits: FormLimits;
}

export type FormTaskResult = { ok: true; form: ScannedForm } | { ok: false; message: string; param: string | null };

export default function scanForm(task: FormTask): FormTaskResult {
  try {
    return { ok: true, form: scanFormFileSync(task.path, task.boundary, task.limits) };
  } catch (err) {
    const e = asFormError(err);
    if (e instanceof FormError) return { ok: false, message: e.message, param: e.param };
    throw e;
  }
}
