/**
 * The link between the light hero of /product/earn and its products island: the island, once loaded, registers what the hero's "Subscribe now" does for a
 * signed-in user (open the subscribe modal of the current fund, or the verification prompt).
 */
let subscribeHandler: (() => void) | undefined;

/** Registers the hero's subscribe action; returns the function that removes it again. */
export function setEarnSubscribeHandler(handler: () => void): () => void {
  subscribeHandler = handler;
  return () => {
    if (subscribeHandler === handler) subscribeHandler = undefined;
  };
}

/** Runs the registered subscribe action; false while the products island has not loaded yet. */
export function runEarnSubscribe(): boolean {
  if (!subscribeHandler) return false;
  subscribeHandler();
  return true;
}
