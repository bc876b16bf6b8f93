// Text to match literally inside a RegExp built from names the instruction or the file gives.
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
