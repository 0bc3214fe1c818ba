"""What every page shares: middleware, security, errors, templates, the page kit's forms, settings."""
