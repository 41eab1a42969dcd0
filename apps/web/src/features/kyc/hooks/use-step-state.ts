import { useState } from 'react';

/**
 * The state every verification step form keeps: the `current` step (0-based, starts at 0), the
 * `error` shown above the step buttons (null for none) and `isBusy` while a request is out.
 */
export function useStepState() {
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  return { current, setCurrent, error, setError, isBusy, setIsBusy };
}
