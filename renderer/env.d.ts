/** Stylesheets are imported for their effect; Vite bundles them into a file the CSP allows. */
declare module '*.css';
