/** passport's request methods (lib/http/request.js), which its authenticate() attaches to every request. */
declare module 'passport/lib/http/request.js' {
  const requestExt: {
    logIn: (...args: unknown[]) => void;
    logOut: (...args: unknown[]) => void;
    isAuthenticated: () => boolean;
    isUnauthenticated: () => boolean;
  };
  export default requestExt;
}
