/** Placeholder: the live-updates issue connects socket.io here and patches react-query caches. */
export {};
