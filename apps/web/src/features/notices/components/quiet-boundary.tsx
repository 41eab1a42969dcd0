import { Component, type ReactNode } from 'react';

interface QuietBoundaryProps {
  children: ReactNode;
  /** What shows instead of children that failed; nothing by default. */
  fallback?: ReactNode;
}

/**
 * Keeps a failure of the message centre's extras — a lazily loaded part that no longer exists after
 * a deployment, a rendering error — inside them: the page around goes on, and the error is logged.
 */
export class QuietBoundary extends Component<QuietBoundaryProps, { hasFailed: boolean }> {
  override state = { hasFailed: false };

  static getDerivedStateFromError(): { hasFailed: boolean } {
    return { hasFailed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.log('A part of the message centre failed:', error);
  }

  override render(): ReactNode {
    return this.state.hasFailed ? (this.props.fallback ?? null) : this.props.children;
  }
}
