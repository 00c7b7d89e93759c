// Owns `media refresh`: the image sizes this version makes, for images kept before it. The
// only command that needs sharp, which the media store loads when it first resizes.
import 'server-only';
import { createContentStore } from '../../lib/content/content';
import { createMediaStore } from '../../lib/media/media';
import { CliError, type Run } from '../command';

export const mediaRefresh: Run = async (_args, { db, io }) => {
  const media = createMediaStore(db);
  const { hashes, made, problems } = await media.refreshVariants();
  // Every page with an image, not only those whose image gained a size now: a run stopped
  // before this step left pages without sizes their images have (hostile pass).
  const rendered = await createContentStore(db).refreshPictures();
  if (made > 0 || rendered > 0)
    io.stdout(
      `made ${made} image file(s) for ${hashes.length} image(s); updated the images of ${rendered} page text(s)\n`,
    );
  else if (problems.length === 0)
    io.stdout('every image has the sizes this version makes, and every page offers them\n');
  for (const problem of problems) io.stderr(`folio: ${problem}\n`);
  if (problems.length > 0)
    throw new CliError(
      `${problems.length} image(s) could not be given their sizes (above); their pages keep the sizes they had`,
    );
};
