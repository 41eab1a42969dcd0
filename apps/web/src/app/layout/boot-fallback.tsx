/**
 * Shown while the first route's code arrives on a direct visit to a page other than home: the
 * header's frame, so the page does not flash white, and a quiet loading line.
 */
export function BootFallback() {
  return (
    <>
      <div className="boot-header" aria-hidden="true" />
      <div className="page-loading" role="status" aria-live="polite">
        <span className="page-loading__bar" />
      </div>
    </>
  );
}

/** Shown inside the layout while a page's code or texts load. */
export function PageFallback() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="page-loading__bar" />
    </div>
  );
}
