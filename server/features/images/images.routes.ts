import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireActiveUser } from '../../http/auth';
import { AppError } from '../../http/errors';
import { parse, parseId } from '../../http/validate';
import { IMAGE_MAX_BYTES, IMAGES_MAX } from '@shared/rules/limits';
import { ImageOrderInput } from '@shared/schemas/auctions';
import { auctionTexts } from '@shared/texts/auctions';
import type { ApiOutput } from '@shared/api';
import { addImages, assertImagesEditable, deleteImage, reorderImages, requireSellerOf, safeName, type Upload } from './images.service';

/**
 * Repeated `image` parts (any field name is taken), held in memory: at most 6 files of 6 MB each. multer (with
 * busboy and a 0.2 MB MIME table) is loaded with the first upload, not at start (docs/performance.md, B4).
 */
let multerModule: Promise<{ upload: RequestHandler; MulterError: typeof import('multer').MulterError }> | undefined;
const loadMulter = () =>
  (multerModule ??= import('multer').then(({ default: multer, MulterError }) => ({
    upload: multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: IMAGE_MAX_BYTES, files: IMAGES_MAX, fields: 10, parts: IMAGES_MAX + 10, fieldSize: 10_000 },
      defParamCharset: 'utf8',
    }).any(),
    MulterError,
  })));

const receiveFiles: RequestHandler = async (req, res, next) => {
  const { upload, MulterError } = await loadMulter();
  upload(req, res, (err: unknown) => {
    if (!err) return next();
    if (err instanceof MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') return next(AppError.field('image', auctionTexts.imageTooLarge(safeName((err as InstanceType<typeof MulterError> & { filename?: string }).filename))));
      if (err.code === 'LIMIT_FILE_COUNT' || err.code === 'LIMIT_PART_COUNT') {
        return next(AppError.field('image', auctionTexts.imagesTooMany));
      }
    }
    next(AppError.badRequest(auctionTexts.badForm, undefined, 'bad_form'));
  });
};

export function imagesRoutes(ctx: AppContext): Router {
  const r = Router();

  // The seller check runs before the body is read, so nobody else can make us buffer 36 MB.
  const sellerOnly: RequestHandler = async (req, _res, next) => {
    const auction = await requireSellerOf(ctx, currentUser(req), parseId(req.params.id));
    await assertImagesEditable(ctx, auction, req.method === 'POST');
    next();
  };

  r.post('/auction-items/:id/images/', requireActiveUser, sellerOnly, receiveFiles, async (req, res) => {
    const files = (Array.isArray(req.files) ? req.files : []) as Upload[];
    const images = await addImages(ctx, parseId(req.params.id), files);
    res.status(201).json({ images } satisfies ApiOutput<'POST /api/auction-items/:id/images/'>);
  });

  r.put('/auction-items/:id/images/order/', requireActiveUser, sellerOnly, async (req, res) => {
    const input = parse(ImageOrderInput, req.body);
    res.json({ images: await reorderImages(ctx, parseId(req.params.id), input.image_ids) } satisfies ApiOutput<'PUT /api/auction-items/:id/images/order/'>);
  });

  r.delete('/auction-items/:id/images/:imageId/', requireActiveUser, sellerOnly, async (req, res) => {
    await deleteImage(ctx, parseId(req.params.id), parseId(req.params.imageId));
    res.status(204).end();
  });

  return r;
}
