/** The widget's translation bundles register themselves and ship no types. */
declare module 'altcha/i18n/zh-hk';
