import { Component, type ReactNode } from 'react';
import { Link, useLocation, type Location } from 'react-router-dom';
import { sr } from '@shared/texts/sr';

interface Props {
  location: Location;
  children: ReactNode;
}
interface State {
  error: unknown;
  location: Location;
}

/**
 * A page that throws while rendering (e.g. a lazy chunk that failed to load after a deploy) shows a Serbian error
 * page with a reload button in its place, until the next navigation. BrowserRouter (issue 21: it leaves the data
 * router's ~16 kB gz out of the first load) has no error element of its own, and a throw would blank the whole app.
 * The error itself goes to the console only: no message or stack trace on the page.
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
    console.error('A page failed to render', error);
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <div className="page not-found" role="alert">
        <h2 className="not-found__title">{sr.common.errorTitle}</h2>
        <p className="not-found__text">{sr.common.errorText}</p>
        <button type="button" className="btn btn--brand" onClick={() => window.location.reload()}>
          {sr.common.reload}
        </button>{' '}
        <Link className="btn" to="/aukcije">
          {sr.app.backToAuctions}
        </Link>
      </div>
    );
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}
