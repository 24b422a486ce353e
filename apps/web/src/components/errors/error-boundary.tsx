import { Component, type ErrorInfo, type ReactNode } from 'react';
import { PanelErrorFallback } from './panel-error-fallback';

interface Props {
  children: ReactNode;
  /** Renders instead of the children after an error; defaults to the panel fallback. */
  fallback?: (reset: () => void) => ReactNode;
}

interface State {
  error: unknown;
}

/** Catches a render error in one panel so the rest of the page keeps working. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Panel error', error, info.componentStack);
  }

  reset = () => this.setState({ error: null });

  override render() {
    if (this.state.error) {
      return this.props.fallback?.(this.reset) ?? <PanelErrorFallback onRetry={this.reset} />;
    }
    return this.props.children;
  }
}
