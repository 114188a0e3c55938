import { Component, type ReactNode } from 'react';
import { useLocation, type Location } from 'react-router-dom';

interface Props {
  location: Location;
  children: ReactNode;
}
interface State {
  error: unknown;
  location: Location;
}

const grey = 'rgba(200,200,200, 0.5)';

/**
 * What the data router (createBrowserRouter) showed when a page threw while rendering, e.g. a lazy chunk that
 * failed to load: React Router's default error element, until the next navigation. BrowserRouter (issue 21: it
 * leaves the data router's ~16 kB gz out of the first load) has none, and a throw would blank the whole app.
 */
class Boundary extends Component<Props, State> {
  state: State = { error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location !== state.location ? { error: undefined, location: props.location } : null;
  }

  componentDidCatch(error: unknown) {
    console.error('React Router caught the following error during render', error);
  }

  render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    const stack = error instanceof Error ? error.stack : null;
    return (
      <>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: 'italic' }}>{message}</h3>
        {stack ? <pre style={{ padding: '0.5rem', backgroundColor: grey }}>{stack}</pre> : null}
      </>
    );
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}
