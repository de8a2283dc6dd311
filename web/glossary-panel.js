// The glossary panel and the reference popovers: loaded by the glossary section's own script
// tag. The page's own prose is linked once here; the views link the engine text they render.
import { byId } from './dom.js';
import { renderGlossary } from './glossary.js';
import { linkReferences, setUpReferencePopovers } from './popover.js';

renderGlossary(byId('glossary', HTMLDivElement));
linkReferences(document.body);
setUpReferencePopovers();
