/** Full-page navigations of the customer screens, apart so tests can observe them. */
export const reloadPage = (): void => window.location.reload();
export const goTo = (url: string): void => window.location.assign(url);
