// The glossary panel and the popovers: loaded by the glossary section's own script tag. The
// page's own prose is linked once here; the views link the engine text and the terms of what
// they draw themselves.
import { byId } from './dom.js';
import { renderGlossary } from './glossary.js';
import { linkReferences, linkTerms, setUpReferencePopovers } from './popover.js';

renderGlossary(byId('glossary', HTMLDivElement));
linkReferences(document.body);
// A term is linked once per view: each tab's panel, and each part of the frame around them.
for (const view of document.querySelectorAll('[role="tabpanel"], .app > :not(main)')) linkTerms(view);
setUpReferencePopovers();
