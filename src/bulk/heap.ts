// Peak memory of a long streaming read (`types list --all -o ndjson` over 100,000 items).
//
// What such a walk keeps alive is small and flat: a few pages of 50 items, ~9 MB of live heap
// after a full GC from start to end. Its peak RSS was still 100-112 MB, because V8 grows the
// young generation whenever enough bytes have survived scavenges since the last growth, summed
// over the run: pages held for reordering and requests in flight survive a scavenge or two, so
// over thousands of pages the semi-spaces double up to their maximum (16 MB each here), and
// what gets promoted on the way fills the old generation until the next mark-compact.
//
// Not letting the young generation grow (growth factor 1) keeps it at its starting size: more,
// smaller scavenges, each cheap because nearly everything in it is already dead. Measured on
// that walk with Node 20 (V8 11.3): peak RSS ~101 MB -> ~74 MB, same CPU time. V8 reads the
// flag each time it would grow the new space, so setting it at run time works; it only
// affects this short-lived process. Some later V8 versions enforce a minimum factor of 2, and
// there this is a harmless no-op.
let done = false;

export async function preferSmallYoungGeneration(): Promise<void> {
  if (done) return;
  done = true;
  // Only V8 versions known to have the flag (setting an unknown one prints an error), the
  // same range src/main.ts trusts for its own V8 flag.
  const v8Major = Number(process.versions.v8.split('.')[0]);
  if (!(v8Major >= 9 && v8Major <= 14)) return;
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}
