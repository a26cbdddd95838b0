/** Leaving the app for a hospital's sign-in page (a full navigation); component tests record it instead, jsdom cannot navigate. */
export const leave = {
  to(url: string): void {
    window.location.assign(url);
  },
};
