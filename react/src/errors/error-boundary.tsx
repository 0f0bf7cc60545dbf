import { Component, type ReactNode } from "react";
import { ErrorMessage } from "./error-message.tsx";

/** Shows a render-time failure (e.g. the user could not be loaded) in place of the page, with its message. */
export class ErrorBoundary extends Component<{ children?: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override render() {
    return this.state.error ? <ErrorMessage error={this.state.error} /> : this.props.children;
  }
}
